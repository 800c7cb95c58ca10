package io.mixflame.examples.service;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Client threads sending requests to the service on 127.0.0.1, each cycling through the endpoints, until the time
 * or the request budget runs out. Only loopback: the port is the only thing it is told. Requests sent during the
 * first quarter of the time (at most 2 s) warm the JVMs up and are not measured.
 */
public final class LoadGenerator {
    private static final long WARM_UP_NANOS = 2_000_000_000L;

    private LoadGenerator() {
    }

    /**
     * How much load.
     *
     * @param threads     client threads, each with one request outstanding at a time
     * @param maxRequests stop after this many requests in all
     * @param seconds     stop after this long
     */
    public record Settings(int threads, long maxRequests, int seconds) {
        /** Client threads unless told otherwise. */
        public static final long DEFAULT_THREADS = 8;
        /** A bound high enough that the time is what ends a default run. */
        public static final long DEFAULT_MAX_REQUESTS = 1_000_000;
    }

    /** Runs the load against {@code 127.0.0.1:port} and returns what the clients measured. */
    public static LoadReport run(int port, Settings settings) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        long start = System.nanoTime();
        long deadline = start + settings.seconds() * 1_000_000_000L;
        // The first requests run in the interpreter and load classes; measuring them would make p99 a start-up time.
        long warmUpNanos = Math.min(WARM_UP_NANOS, settings.seconds() * 1_000_000_000L / 4);
        LoadReport report = new LoadReport(settings.threads(), start + warmUpNanos, warmUpNanos);
        AtomicLong budget = new AtomicLong(settings.maxRequests());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < settings.threads(); i++) {
            int first = i;
            Thread t = new Thread(() -> clientLoop(client, port, first, deadline, budget, report), "load-client-" + i);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        report.finished(System.nanoTime());
        return report;
    }

    private static void clientLoop(HttpClient client, int port, int first, long deadline, AtomicLong budget,
                                   LoadReport report) {
        Endpoint[] endpoints = Endpoint.values();
        List<HttpRequest> requests = new ArrayList<>();
        for (Endpoint e : endpoints) {
            requests.add(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + e.path()))
                    .timeout(Duration.ofSeconds(10)).GET().build());
        }
        // Threads start at different endpoints, so that every endpoint has requests in flight from the start.
        int next = first % endpoints.length;
        while (System.nanoTime() < deadline && budget.getAndDecrement() > 0) {
            long sent = System.nanoTime();
            try {
                HttpResponse<String> r = client.send(requests.get(next), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    report.record(endpoints[next], sent, System.nanoTime() - sent);
                } else {
                    report.error();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                report.error();
            }
            next = (next + 1) % endpoints.length;
        }
    }
}
