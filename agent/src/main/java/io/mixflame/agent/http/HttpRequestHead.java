package io.mixflame.agent.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The head of an HTTP/1.0 or HTTP/1.1 request (request line and header fields), parsed strictly enough that
 * anything odd gets a clear 4xx or 505 rather than a guess. Bodies are not part of it: this server reads heads
 * only.
 *
 * @param method  the method, case-sensitive as HTTP says ({@code GET})
 * @param target  the request target in origin form, {@code /path?query} (an absolute-form target is reduced to it)
 * @param version {@code HTTP/1.0} or {@code HTTP/1.1}
 * @param headers header fields by lower-cased name; repeated fields joined with {@code ", "}
 */
public record HttpRequestHead(String method, String target, String version, Map<String, String> headers) {

    /** A request this server will not handle, with the status that says why. */
    public static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }

        /** The HTTP status to answer with (400, 431 or 505). */
        public int status() {
            return status;
        }
    }

    /** The target as a URI, for its path and query. */
    public URI uri() {
        return URI.create(target);
    }

    /** Whether the head announces a body ({@code Content-Length} above 0 or any {@code Transfer-Encoding}). */
    public boolean announcesBody() {
        String length = headers.get("content-length");
        return headers.containsKey("transfer-encoding") || (length != null && !length.equals("0"));
    }

    /**
     * Where the head ends in {@code bytes[0, length)}: the index just after the empty line that closes it, or -1
     * while it is incomplete. Lines may end in CRLF or, leniently, LF alone.
     *
     * @param from where to start looking; a caller that appends bytes passes the previous length, and the search
     *             backs up over the few bytes a line ending split across reads may have left
     */
    public static int endOfHead(byte[] bytes, int from, int length) {
        for (int i = Math.max(0, from - 3); i < length; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            int next = i + 1;
            if (next < length && bytes[next] == '\r') {
                next++;
            }
            if (next < length && bytes[next] == '\n') {
                return next + 1;
            }
        }
        return -1;
    }

    /**
     * Parses a complete head, {@code bytes[0, length)} as {@link #endOfHead} delimited it.
     *
     * @throws BadRequest 400 for a malformed request line, target or header field, 505 for an HTTP version
     *                    other than 1.0 and 1.1
     */
    public static HttpRequestHead parse(byte[] bytes, int length) throws BadRequest {
        String[] lines = new String(bytes, 0, length, StandardCharsets.ISO_8859_1).split("\r?\n", -1);
        int first = 0;
        while (first < lines.length && lines[first].isEmpty()) {
            first++; // RFC 9112 2.2: empty lines before the request line are ignored.
        }
        if (first == lines.length) {
            throw new BadRequest(400, "empty request");
        }
        String[] parts = lines[first].split(" ", -1);
        if (parts.length != 3) {
            throw new BadRequest(400, "the request line is not METHOD TARGET HTTP/1.x");
        }
        String method = parts[0];
        if (!isToken(method)) {
            throw new BadRequest(400, "bad method");
        }
        String version = parts[2];
        if (!version.matches("HTTP/\\d\\.\\d")) {
            throw new BadRequest(400, "the request line is not METHOD TARGET HTTP/1.x");
        }
        if (!version.equals("HTTP/1.0") && !version.equals("HTTP/1.1")) {
            throw new BadRequest(505, "only HTTP/1.0 and HTTP/1.1 are served");
        }
        String target = originForm(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = first + 1; i < lines.length; i++) {
            String line = lines[i];
            if (line.isEmpty()) {
                break;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || !isToken(line.substring(0, colon))) {
                throw new BadRequest(400, "malformed header field");
            }
            String name = line.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            headers.merge(name, value, (a, b) -> a + ", " + b);
        }
        return new HttpRequestHead(method, target, version, Map.copyOf(headers));
    }

    private static String originForm(String target) throws BadRequest {
        URI uri;
        try {
            uri = new URI(target);
        } catch (URISyntaxException e) {
            throw new BadRequest(400, "the request target is not a valid URI");
        }
        if (target.startsWith("/") && uri.getRawAuthority() == null) {
            return target;
        }
        if (uri.isAbsolute() && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                && uri.getRawPath() != null) {
            String path = uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        }
        throw new BadRequest(400, "the request target must be a path");
    }

    /** RFC 9110 token: one or more of the visible characters other than delimiters (a method, a header's name). */
    public static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
