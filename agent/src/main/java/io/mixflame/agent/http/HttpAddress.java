package io.mixflame.agent.http;

import java.net.InetSocketAddress;

/**
 * The {@code http=} option: {@code PORT} (loopback), or {@code HOST:PORT} when the user names an address; an
 * IPv6 address goes in brackets ({@code [::1]:8080}).
 *
 * @param host where to listen, without brackets
 * @param port the port (0 for any free one)
 */
public record HttpAddress(String host, int port) {

    /**
     * Parses the option value.
     *
     * @throws IllegalArgumentException with a one-line reason
     */
    public static HttpAddress parse(String value) {
        int colon = value.lastIndexOf(':');
        String host = colon < 0 ? "127.0.0.1" : value.substring(0, colon);
        String port = colon < 0 ? value : value.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 0 || p > 65535 || host.isEmpty()) {
                throw new NumberFormatException();
            }
            return new HttpAddress(host, p);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("http=" + value + " is not PORT, HOST:PORT or [IPV6]:PORT");
        }
    }

    /** As the option is written: {@code HOST:PORT}, an IPv6 host in brackets. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    InetSocketAddress socketAddress() {
        return new InetSocketAddress(host, port);
    }

    /** Whether the host is the wildcard address ({@code 0.0.0.0} or {@code ::}): every address of the host. */
    public boolean isWildcard() {
        InetSocketAddress a = socketAddress();
        return !a.isUnresolved() && a.getAddress().isAnyLocalAddress();
    }

    /**
     * A URL a client can use to reach the server bound at {@code bound}: the host as the user wrote it, except
     * that the wildcard address, which stands for every address of the host, becomes the loopback address (of
     * IPv6 when the user asked for {@code ::}). An IPv6 address goes in brackets, its zone as {@code %25}.
     */
    public String url(InetSocketAddress bound) {
        String hostPart;
        if (isWildcard()) {
            hostPart = host.indexOf(':') >= 0 ? "[::1]" : "127.0.0.1";
        } else {
            hostPart = host.indexOf(':') >= 0 ? "[" + host.replace("%", "%25") + "]" : host;
        }
        return "http://" + hostPart + ":" + bound.getPort() + "/";
    }
}
