package io.mixflame.agent.push;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** A loopback HTTP server that records each request and answers as scripted: the next scripted answer, else 200. */
final class TestReceiver implements AutoCloseable {

    /** A request as received. */
    record Request(String method, String path, String rawQuery, Map<String, List<String>> headers, byte[] body,
                   long atNanos) {
        String header(String name) {
            for (Map.Entry<String, List<String>> h : headers.entrySet()) {
                if (h.getKey().equalsIgnoreCase(name)) {
                    return h.getValue().get(0);
                }
            }
            return null;
        }
    }

    /** An answer to give. */
    record Answer(int status, String retryAfter, String body) {
    }

    private final HttpServer server;
    private final List<Request> requests = new ArrayList<>();
    private final Deque<Answer> script = new ArrayDeque<>();

    private TestReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    static TestReceiver start() throws IOException {
        return new TestReceiver();
    }

    /** The base URL, such as {@code http://127.0.0.1:12345}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answers the next requests so, in order; then 200 again. */
    synchronized TestReceiver then(int status, String retryAfter, String body) {
        script.addLast(new Answer(status, retryAfter, body));
        return this;
    }

    /** Answers every request from now on with {@code status}. */
    synchronized void always(int status) {
        script.clear();
        for (int i = 0; i < 1000; i++) {
            script.addLast(new Answer(status, null, ""));
        }
    }

    synchronized void clearScript() {
        script.clear();
    }

    synchronized List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Waits up to 5 s for {@code n} requests; returns them all. */
    List<Request> await(int n) throws InterruptedException {
        Waits.until(() -> requests().size() >= n, "receiving " + n + " requests, got " + requests().size());
        return requests();
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Answer answer;
        synchronized (this) {
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()), body,
                    System.nanoTime()));
            answer = script.isEmpty() ? new Answer(200, null, "") : script.removeFirst();
        }
        if (answer.retryAfter() != null) {
            exchange.getResponseHeaders().add("Retry-After", answer.retryAfter());
        }
        byte[] text = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(answer.status(), text.length == 0 ? -1 : text.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(text);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** Waiting for a condition with a deadline, never a fixed sleep. */
    static final class Waits {
        private Waits() {
        }

        static void until(BooleanSupplier condition, String what) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("timed out " + what);
                }
                Thread.sleep(5);
            }
        }
    }
}
