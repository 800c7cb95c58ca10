package io.mixflame.agent.http;

import java.net.Inet6Address;
import java.net.InetAddress;
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
     * A URL a client can use to reach the server bound at {@code bound}: the wildcard address stands for every
     * address of the host, so the URL names the loopback address (of IPv6 when the user asked for {@code ::}); an
     * IPv6 address is put in brackets.
     */
    public String url(InetSocketAddress bound) {
        String hostPart;
        if (isWildcard()) {
            hostPart = host.indexOf(':') >= 0 ? "[::1]" : "127.0.0.1";
        } else {
            InetAddress address = bound.getAddress();
            String literal = address.getHostAddress();
            // A zone (fe80::1%eth0) is written %25 in a URL (RFC 6874).
            hostPart = address instanceof Inet6Address ? "[" + literal.replace("%", "%25") + "]" : literal;
        }
        return "http://" + hostPart + ":" + bound.getPort() + "/";
    }
}
