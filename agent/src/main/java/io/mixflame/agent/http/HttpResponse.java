package io.mixflame.agent.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A complete response: status, content type, body and any extra header fields. Every response closes the
 * connection ({@code Connection: close}) and states its length, so that clients need no chunked decoding and the
 * server keeps no connection state between requests.
 */
public final class HttpResponse {
    private final int status;
    private final String contentType;
    private final byte[] body;
    private final Map<String, String> extraHeaders;

    private HttpResponse(int status, String contentType, byte[] body, Map<String, String> extraHeaders) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
        this.extraHeaders = extraHeaders;
    }

    /** A response with a body of the given type. */
    public static HttpResponse of(int status, String contentType, byte[] body) {
        return new HttpResponse(status, contentType, body, Map.of());
    }

    /** A plain-text response, typically an error with a one-line reason. */
    public static HttpResponse text(int status, String text) {
        return of(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /** This response with one more header field; the name and value must be free of CR and LF. */
    public HttpResponse withHeader(String name, String value) {
        if ((name + value).indexOf('\r') >= 0 || (name + value).indexOf('\n') >= 0) {
            throw new IllegalArgumentException("a header field may not hold a line break");
        }
        Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
        headers.put(name, value);
        return new HttpResponse(status, contentType, body, headers);
    }

    /** The status code. */
    public int status() {
        return status;
    }

    /** The body's length in bytes. */
    public int bodyLength() {
        return body.length;
    }

    /** The bytes to send: the head, then the body. */
    ByteBuffer[] encode() {
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason(status))
                .append("\r\nContent-Type: ").append(contentType)
                .append("\r\nContent-Length: ").append(body.length)
                .append("\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n");
        extraHeaders.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        return new ByteBuffer[] {ByteBuffer.wrap(head.toString().getBytes(StandardCharsets.ISO_8859_1)),
                ByteBuffer.wrap(body)};
    }

    /** The reason phrase of the statuses this server sends. */
    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> "Status " + status;
        };
    }
}
