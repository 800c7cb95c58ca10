package io.mixflame.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpRequestHeadTest {

    private static HttpRequestHead parse(String head) throws HttpRequestHead.BadRequest {
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        int end = HttpRequestHead.endOfHead(bytes, 0, bytes.length);
        assertThat(end).as("complete head").isPositive();
        return HttpRequestHead.parse(bytes, end);
    }

    private static int statusOf(String head) {
        try {
            parse(head);
        } catch (HttpRequestHead.BadRequest e) {
            return e.status();
        }
        throw new AssertionError("accepted: " + head);
    }

    @Test
    void parsesRequestLineAndHeaders() throws Exception {
        HttpRequestHead h = parse("GET /flame?seconds=5 HTTP/1.1\r\nHost: localhost\r\nAccept: a\r\naccept: b\r\n\r\n");
        assertThat(h.method()).isEqualTo("GET");
        assertThat(h.target()).isEqualTo("/flame?seconds=5");
        assertThat(h.uri().getPath()).isEqualTo("/flame");
        assertThat(h.uri().getRawQuery()).isEqualTo("seconds=5");
        assertThat(h.version()).isEqualTo("HTTP/1.1");
        assertThat(h.headers()).containsEntry("host", "localhost").containsEntry("accept", "a, b");
        assertThat(h.announcesBody()).isFalse();
    }

    @Test
    void acceptsHttp10BareLineFeedsAndLeadingEmptyLines() throws Exception {
        HttpRequestHead h = parse("\r\nGET /status HTTP/1.0\nHost: x\n\n");
        assertThat(h.version()).isEqualTo("HTTP/1.0");
        assertThat(h.target()).isEqualTo("/status");
        assertThat(h.headers()).containsEntry("host", "x");
    }

    @Test
    void reducesAnAbsoluteTargetToItsPathAndQuery() throws Exception {
        assertThat(parse("GET http://h:1/debug/pprof/profile?seconds=2 HTTP/1.1\r\n\r\n").target())
                .isEqualTo("/debug/pprof/profile?seconds=2");
        assertThat(parse("GET http://h:1 HTTP/1.1\r\n\r\n").target()).isEqualTo("/");
    }

    @Test
    void announcesBodyForContentLengthOrTransferEncoding() throws Exception {
        assertThat(parse("GET / HTTP/1.1\r\nContent-Length: 3\r\n\r\n").announcesBody()).isTrue();
        assertThat(parse("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").announcesBody()).isFalse();
        assertThat(parse("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").announcesBody()).isTrue();
    }

    @Test
    void refusesMalformedHeads() {
        assertThat(statusOf("\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET /\r\n\r\n")).as("HTTP/0.9").isEqualTo(400);
        assertThat(statusOf("GET  / HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTP/1.1 extra\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("G(T / HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTX/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTP/2.0\r\n\r\n")).isEqualTo(505);
        assertThat(statusOf("GET / HTTP/0.9\r\n\r\n")).isEqualTo(505);
        assertThat(statusOf("GET status HTTP/1.1\r\n\r\n")).as("not a path").isEqualTo(400);
        assertThat(statusOf("GET * HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET //evil/x HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET ftp://h/x HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET /a b HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET /% HTTP/1.1\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTP/1.1\r\nno colon\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTP/1.1\r\nHost : x\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTP/1.1\r\n: x\r\n\r\n")).isEqualTo(400);
        assertThat(statusOf("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n")).isEqualTo(400);
    }

    @Test
    void findsTheEndOfTheHeadAcrossReads() {
        byte[] bytes = "GET / HTTP/1.1\r\nHost: x\r\n\r\nrest".getBytes(StandardCharsets.ISO_8859_1);
        int headLength = bytes.length - "rest".length();
        assertThat(HttpRequestHead.endOfHead(bytes, 0, headLength - 1)).isEqualTo(-1);
        // Bytes arriving one at a time: each search starts where the last one stopped.
        int found = -1;
        for (int length = 1; length <= bytes.length && found < 0; length++) {
            found = HttpRequestHead.endOfHead(bytes, length - 1, length);
        }
        assertThat(found).isEqualTo(headLength);
        assertThat(HttpRequestHead.endOfHead("GET / HTTP/1.0\n\nx".getBytes(StandardCharsets.ISO_8859_1), 0, 17))
                .isEqualTo(16);
        assertThat(HttpRequestHead.endOfHead("GET / HTTP/1.0\r\nA: b\r\n".getBytes(StandardCharsets.ISO_8859_1), 0,
                22)).isEqualTo(-1);
    }
}
