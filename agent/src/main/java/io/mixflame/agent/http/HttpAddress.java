package io.mixflame.agent.http;

import java.net.InetSocketAddress;

/**
 * The {@code http=} option: {@code PORT} (loopback), or {@code HOST:PORT} when the user names an address.
 *
 * @param host where to listen
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
        try {
            int p = Integer.parseInt(port);
            if (p < 0 || p > 65535 || host.isEmpty()) {
                throw new NumberFormatException();
            }
            return new HttpAddress(host, p);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("http=" + value + " is not PORT or HOST:PORT");
        }
    }

    InetSocketAddress socketAddress() {
        return new InetSocketAddress(host, port);
    }
}
