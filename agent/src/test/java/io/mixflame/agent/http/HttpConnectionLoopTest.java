package io.mixflame.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.RawSockets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The loop in this JVM, with small limits so that deadlines and caps show within a second or two. */
class HttpConnectionLoopTest {
    private static final int TIMEOUT_MILLIS = 10_000;

    private final List<Socket> sockets = new ArrayList<>();
    private HttpConnectionLoop loop;

    @AfterEach
    void tearDown() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        if (loop != null) {
            loop.close();
        }
    }

    private void start(int maxConnections, Duration headTimeout, Duration writeTimeout,
                       HttpConnectionLoop.Handler handler) throws IOException {
        loop = HttpConnectionLoop.start(new InetSocketAddress("127.0.0.1", 0), new HttpConnectionLoop.Limits(
                maxConnections, 512, headTimeout, writeTimeout, Duration.ofMillis(500), 2), handler);
    }

    private void start(HttpConnectionLoop.Handler handler) throws IOException {
        start(4, Duration.ofSeconds(10), Duration.ofSeconds(10), handler);
    }

    private static HttpResponse echo(HttpRequestHead request) {
        return HttpResponse.text(200, "you asked for " + request.target() + "\n");
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        sockets.add(s);
        s.connect(loop.localAddress(), TIMEOUT_MILLIS);
        s.setSoTimeout(TIMEOUT_MILLIS);
        return s;
    }

    private String exchange(String request) throws IOException {
        Socket s = connect();
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void answersAndClosesTheConnection() throws Exception {
        start(HttpConnectionLoopTest::echo);
        String response = exchange("GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(response).startsWith("HTTP/1.1 200 OK\r\n").contains("Connection: close\r\n")
                .contains("Content-Length: 21\r\n").endsWith("\r\n\r\nyou asked for /a?b=c\n");
    }

    @Test
    void malformedAndOversizedHeadsAreRefused() throws Exception {
        start(HttpConnectionLoopTest::echo);
        assertThat(exchange("GET / HTTP/3.0\r\n\r\n")).startsWith("HTTP/1.1 505 ");
        assertThat(exchange("nonsense\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        assertThat(exchange("GET / HTTP/1.1\r\nX: " + "y".repeat(600) + "\r\n\r\n"))
                .startsWith("HTTP/1.1 431 ");
    }

    @Test
    void handlerFailureIs500() throws Exception {
        start(request -> {
            throw new IllegalStateException("boom");
        });
        assertThat(exchange("GET / HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 500 ");
    }

    @Test
    void slowClientGets408WhileOthersAreAnswered() throws Exception {
        start(4, Duration.ofMillis(700), Duration.ofSeconds(10), HttpConnectionLoopTest::echo);
        Socket slow = connect();
        slow.getOutputStream().write("GET / HTTP/1.1\r\nX-Slow: ".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(exchange("GET /quick HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        String dropped = new String(slow.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertThat(dropped).startsWith("HTTP/1.1 408 ");
    }

    @Test
    void oneConnectionTooManyDropsTheOldestUnfinished() throws Exception {
        start(HttpConnectionLoopTest::echo);
        List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            idle.add(connect());
        }
        Thread.sleep(200); // Accepted in this order.
        assertThat(exchange("GET /fifth HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        assertThat(RawSockets.closedByPeerWithin(idle.get(0), Duration.ofSeconds(2)))
                .as("the oldest idle connection").isTrue();
        assertThat(RawSockets.closedByPeerWithin(idle.get(3), Duration.ofMillis(300)))
                .as("the newest idle connection").isFalse();
    }

    @Test
    void whenEveryConnectionIsBeingAnsweredANewOneIsClosed() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        start(2, Duration.ofSeconds(10), Duration.ofSeconds(10), request -> {
            release.await();
            return echo(request);
        });
        List<Socket> busy = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Socket s = connect();
            s.getOutputStream().write("GET /busy HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            busy.add(s);
        }
        Thread.sleep(300);
        Socket third = connect();
        assertThat(RawSockets.closedByPeerWithin(third, Duration.ofSeconds(2))).isTrue();
        release.countDown();
        for (Socket s : busy) {
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1))
                    .startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void aClientThatNeverReadsIsDroppedAndPinsNoThread() throws Exception {
        byte[] big = new byte[64 * 1024 * 1024];
        start(4, Duration.ofSeconds(10), Duration.ofMillis(800),
                request -> request.target().equals("/big") ? HttpResponse.of(200, "application/octet-stream", big)
                        : echo(request));
        // As many clients that never read as there are workers: a worker that wrote the response itself would
        // be stuck in each, and no one else would be answered.
        List<Socket> readers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Socket reader = connect();
            reader.setReceiveBufferSize(4096);
            reader.getOutputStream().write("GET /big HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            readers.add(reader);
        }
        Thread.sleep(200);
        for (int i = 0; i < 3; i++) {
            assertThat(exchange("GET /small HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        }
        Thread.sleep(1_500);
        for (Socket reader : readers) {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                reader.getInputStream().transferTo(got);
            } catch (SocketException e) {
                // Reset: dropped.
            }
            assertThat(got.size()).as("bytes received before the server gave up").isLessThan(big.length);
        }
    }

    @Test
    void closeStopsEveryThreadPromptly() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        start(request -> {
            entered.countDown();
            Thread.sleep(60_000);
            return echo(request);
        });
        Socket s = connect();
        s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(entered.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(httpThreads()).isNotEmpty().allMatch(Thread::isDaemon);
        long start = System.nanoTime();
        loop.close();
        while (!httpThreads().isEmpty() && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5)) {
            Thread.sleep(20);
        }
        assertThat(httpThreads()).isEmpty();
        assertThat(RawSockets.closedByPeerWithin(s, Duration.ofSeconds(2))).isTrue();
    }

    private static List<Thread> httpThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("mixflame-http") && t.isAlive()).toList();
    }
}
