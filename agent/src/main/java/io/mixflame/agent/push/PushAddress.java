package io.mixflame.agent.push;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A push target's base address ({@code otlp=}, {@code pyroscope=}): an {@code http} or {@code https} URL with a host,
 * and a path or not, its trailing slashes dropped so that the backend's paths can be appended.
 *
 * @param base the URL without a trailing slash, such as {@code http://collector:4318}
 */
public record PushAddress(String base) {

    /**
     * Parses the option {@code key=value}. The value is never echoed in the message: it may hold credentials.
     *
     * @throws IllegalArgumentException with a one-line reason when the value is no http or https URL with a host,
     *                                  or carries credentials, a query or a fragment
     */
    public static PushAddress parse(String key, String value) {
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            throw notAUrl(key);
        }
        if (uri.getRawUserInfo() != null) {
            // They would appear wherever the address is logged; the auth options keep them out of sight.
            throw new IllegalArgumentException(key + "= must not hold a user or password in its URL; use "
                    + "authuser= and authpassword=, or authtoken=");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.isOpaque() || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                || uri.getPort() > 65_535) {
            throw notAUrl(key);
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(key + "= takes a base URL without a query or fragment");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        return new PushAddress(scheme + "://" + uri.getRawAuthority() + path.substring(0, end));
    }

    /** The URL of {@code path} (which starts with a slash) under this address. */
    public String resolve(String path) {
        return base + path;
    }

    @Override
    public String toString() {
        return base;
    }

    private static IllegalArgumentException notAUrl(String key) {
        return new IllegalArgumentException(key + "= needs an http:// or https:// URL with a host, such as "
                + "http://collector:4318");
    }
}
