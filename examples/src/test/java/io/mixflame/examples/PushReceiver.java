package io.mixflame.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A loopback HTTP receiver that records every request, the OTLP collector's and Pyroscope's stand-in: it answers
 * 200, or as a broken backend would (503, 429 with {@code Retry-After}, or never).
 */
final class PushReceiver implements AutoCloseable {

    /** How the receiver answers. */
    enum Behaviour {
        OK, UNAVAILABLE, TOO_MANY, SILENT
    }

    /** One request as received. */
    record Request(String method, String path, Map<String, String> query, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    private static final int MAX_BODY = 32 * 1024 * 1024;

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private PushReceiver(Behaviour behaviour) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "push-receiver");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", exchange -> handle(exchange, behaviour));
        server.start();
    }

    static PushReceiver start(Behaviour behaviour) throws IOException {
        return new PushReceiver(behaviour);
    }

    /** The address to give the agent: {@code http://127.0.0.1:PORT}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests() {
        return new ArrayList<>(requests);
    }

    List<Request> requests(String path) {
        return requests.stream().filter(r -> r.path().equals(path)).toList();
    }

    private void handle(HttpExchange exchange, Behaviour behaviour) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readNBytes(MAX_BODY);
            }
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT),
                    String.join(",", v)));
            URI uri = exchange.getRequestURI();
            requests.add(new Request(exchange.getRequestMethod(), uri.getPath(), query(uri.getRawQuery()), headers,
                    body));
            switch (behaviour) {
                case OK -> exchange.sendResponseHeaders(200, -1);
                case UNAVAILABLE -> exchange.sendResponseHeaders(503, -1);
                case TOO_MANY -> {
                    exchange.getResponseHeaders().add("Retry-After", "2");
                    exchange.sendResponseHeaders(429, -1);
                }
                case SILENT -> {
                    try {
                        Thread.sleep(600_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> result = new LinkedHashMap<>();
        if (raw == null) {
            return result;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            result.put(key, value);
        }
        return result;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
