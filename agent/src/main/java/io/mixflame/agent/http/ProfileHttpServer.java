package io.mixflame.agent.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.mixflame.profile.Profile;
import io.mixflame.report.OutputFormat;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves profiles over HTTP for continuous profiling: {@code GET /debug/pprof/profile?seconds=N} (pprof, the
 * endpoint Go services expose and Grafana Alloy's {@code pyroscope.scrape} pulls), {@code GET /flame?seconds=N}
 * (an HTML flame graph) and {@code GET /status} (JSON). At most {@value #CONCURRENT} profile requests at a time
 * (more get 429), {@code seconds} between 1 and {@value #MAX_SECONDS} (else 400), on four daemon threads: two
 * for profiles and two left to answer status requests and refusals at once.
 */
public final class ProfileHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileHttpServer.class);
    static final int CONCURRENT = 2;
    static final int MAX_SECONDS = 300;
    private static final long DEFAULT_SECONDS = 30;

    private final HttpServer server;
    private final ExecutorService threads;
    private final Semaphore slots = new Semaphore(CONCURRENT);
    private final ProfileWindowSource source;

    private ProfileHttpServer(HttpServer server, ExecutorService threads, ProfileWindowSource source) {
        this.server = server;
        this.threads = threads;
        this.source = source;
    }

    /** Starts serving; the log names the address. */
    public static ProfileHttpServer start(HttpAddress address, ProfileWindowSource source) throws IOException {
        HttpServer server = HttpServer.create(address.socketAddress(), 8);
        ExecutorService threads = Executors.newFixedThreadPool(CONCURRENT + 2, r -> {
            Thread t = new Thread(r, "mixflame-http");
            t.setDaemon(true);
            return t;
        });
        ProfileHttpServer s = new ProfileHttpServer(server, threads, source);
        server.createContext("/", s::handle);
        server.setExecutor(threads);
        server.start();
        LOG.info("serving profiles on http://{}:{}/ (/debug/pprof/profile, /flame, /status)",
                server.getAddress().getHostString(), server.getAddress().getPort());
        return s;
    }

    /** The port served. */
    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "text/plain", "only GET\n");
                return;
            }
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/status" -> send(exchange, 200, "application/json", status());
                case "/debug/pprof/profile" -> profile(exchange, OutputFormat.PPROF, "application/octet-stream");
                case "/flame" -> profile(exchange, OutputFormat.HTML, "text/html; charset=utf-8");
                default -> send(exchange, 404, "text/plain", "no such endpoint: " + path + "\n");
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("HTTP request failed: {}", e.toString());
        }
    }

    private void profile(HttpExchange exchange, OutputFormat format, String type) throws IOException {
        long seconds;
        try {
            seconds = seconds(exchange.getRequestURI());
        } catch (IllegalArgumentException e) {
            send(exchange, 400, "text/plain", e.getMessage() + "\n");
            return;
        }
        if (!slots.tryAcquire()) {
            send(exchange, 429, "text/plain", "already serving " + CONCURRENT + " profiles; try again later\n");
            return;
        }
        try {
            Profile profile = source.window(seconds);
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            ProfileFiles.write(profile, body, format, ReportOptions.DEFAULT);
            send(exchange, 200, type, body.toByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(exchange, 503, "text/plain", "profiling stopped\n");
        } finally {
            slots.release();
        }
    }

    /** The {@code seconds} parameter, 30 when absent. */
    static long seconds(URI uri) {
        String query = uri.getRawQuery();
        if (query == null || query.isEmpty()) {
            return DEFAULT_SECONDS;
        }
        long seconds = DEFAULT_SECONDS;
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            if (!key.equals("seconds")) {
                throw new IllegalArgumentException("unknown parameter '" + key + "' (expected seconds=N)");
            }
            try {
                seconds = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seconds must be a whole number, not '" + value + "'");
            }
            if (seconds < 1 || seconds > MAX_SECONDS) {
                throw new IllegalArgumentException("seconds must be between 1 and " + MAX_SECONDS);
            }
        }
        return seconds;
    }

    private String status() {
        StringBuilder sb = new StringBuilder("{\"engine\":\"").append(source.engine()).append("\",\"event\":\"")
                .append(source.event()).append("\",\"intervalNanos\":").append(source.intervalNanos())
                .append(",\"samples\":").append(source.samples()).append(",\"cost\":[");
        boolean first = true;
        for (String note : source.costNotes()) {
            sb.append(first ? "" : ",").append('"').append(note.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            first = false;
        }
        return sb.append("]}\n").toString();
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops serving; requests in flight are answered first, for at most a second. */
    @Override
    public void close() {
        server.stop(1);
        threads.shutdownNow();
    }
}
