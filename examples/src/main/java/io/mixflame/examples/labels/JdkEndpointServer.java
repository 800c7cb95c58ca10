package io.mixflame.examples.labels;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The two endpoints on the JDK's {@link HttpServer}: contexts {@code /heavy} and {@code /light} (which also serves
 * {@code /light/ID}), handled by lambdas on a pool of two threads.
 */
final class JdkEndpointServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService workers;

    private JdkEndpointServer(HttpServer server, ExecutorService workers) {
        this.server = server;
        this.workers = workers;
    }

    static JdkEndpointServer start() throws IOException {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/heavy", exchange -> answer(exchange, EndpointWork.heavy()));
        server.createContext("/light", exchange -> answer(exchange, EndpointWork.light()));
        ExecutorService workers = Executors.newFixedThreadPool(2);
        server.setExecutor(workers);
        server.start();
        return new JdkEndpointServer(server, workers);
    }

    int port() {
        return server.getAddress().getPort();
    }

    private static void answer(HttpExchange exchange, long result) throws IOException {
        byte[] body = Long.toString(result).getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
