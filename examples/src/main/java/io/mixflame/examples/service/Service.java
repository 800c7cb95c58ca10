package io.mixflame.examples.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * An HTTP service on the JDK's {@link HttpServer}, bound to 127.0.0.1 only, whose worker threads (named
 * {@code service-worker-N}) measure where their time goes for each {@link Endpoint}.
 */
final class Service implements AutoCloseable {
    /** Worker threads: more than the load generator's default clients, so that requests do not queue for one. */
    static final int WORKERS = 16;
    private static final int CPU_ITERATIONS = 500_000;
    private static final long SLEEP_MILLIS = 20;
    private static final long LOCK_HOLD_MILLIS = 3;

    /** The one monitor every {@code /lock} request needs. */
    private final Object sharedLock = new Object();
    private final Map<Endpoint, EndpointTimes> times = new EnumMap<>(Endpoint.class);
    private final HttpServer server;
    private final ExecutorService workers;
    /** The workers' lifetimes added up: the whole of the time a wall-clock profile of them can cover. */
    private final LongAdder workerLifetimeNanos;
    /** The worker threads: their lifetimes are complete only once they have ended, after the pool's termination. */
    private final List<Thread> workerThreads;
    /** Keeps the JIT from discarding the CPU endpoint's work. */
    private volatile long sink;
    private boolean closed;

    private Service(HttpServer server, ExecutorService workers, LongAdder workerLifetimeNanos,
                    List<Thread> workerThreads) {
        this.server = server;
        this.workers = workers;
        this.workerLifetimeNanos = workerLifetimeNanos;
        this.workerThreads = workerThreads;
    }

    /** Starts the service on a free port of 127.0.0.1. */
    static Service start() throws IOException {
        // Without it, a response's headers and body go out as two small writes, and Nagle's algorithm with the
        // client's delayed ACK holds the second for 40 ms: every latency would measure that instead.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        AtomicInteger n = new AtomicInteger();
        LongAdder lifetimes = new LongAdder();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        ExecutorService workers = Executors.newFixedThreadPool(WORKERS, r -> {
            Thread t = new Thread(() -> {
                long start = System.nanoTime();
                try {
                    r.run();
                } finally {
                    lifetimes.add(System.nanoTime() - start);
                }
            }, "service-worker-" + n.incrementAndGet());
            threads.add(t);
            t.setDaemon(true);
            return t;
        });
        Service service = new Service(server, workers, lifetimes, threads);
        for (Endpoint e : Endpoint.values()) {
            service.times.put(e, new EndpointTimes());
            server.createContext(e.path(), exchange -> service.handle(e, exchange));
        }
        server.setExecutor(workers);
        server.start();
        return service;
    }

    /** The port it listens on. */
    int port() {
        return server.getAddress().getPort();
    }

    /** Prints, per endpoint, what its workers measured; after {@link #close()}, their lifetimes are complete. */
    void printTimes(PrintStream out) {
        out.println("service: " + WORKERS + " worker threads, " + workerLifetimeNanos.sum() / 1_000_000
                + " ms of worker lifetime; time they measured per endpoint:");
        for (Endpoint e : Endpoint.values()) {
            out.println("service: " + times.get(e).describe(e));
        }
    }

    /** Stops accepting requests and waits for the workers to finish the ones they have. */
    @Override
    public void close() throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        server.stop(0);
        workers.shutdown();
        workers.awaitTermination(10, TimeUnit.SECONDS);
        for (Thread t : workerThreads) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
    }

    private void handle(Endpoint endpoint, HttpExchange exchange) throws IOException {
        long start = System.nanoTime();
        String body;
        try {
            exchange.getRequestBody().readAllBytes();
            body = switch (endpoint) {
                case CPU -> Long.toString(compute());
                case SLEEP -> Long.toString(sleep());
                case LOCK -> Long.toString(contend());
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
            return;
        }
        byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        times.get(endpoint).handled(System.nanoTime() - start);
    }

    /** About a millisecond of arithmetic the JIT cannot shorten. */
    private long compute() {
        long x = System.nanoTime() | 1;
        for (int i = 0; i < CPU_ITERATIONS; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        sink = x;
        return x & 0xff;
    }

    private long sleep() throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(SLEEP_MILLIS);
        long slept = System.nanoTime() - start;
        times.get(Endpoint.SLEEP).slept(slept);
        return slept / 1_000_000;
    }

    /**
     * Waits for the shared monitor, then holds it while asleep for a few ms (a slow critical section, such as
     * I/O under a lock), so that the other workers queue on it.
     */
    private long contend() throws InterruptedException {
        EndpointTimes t = times.get(Endpoint.LOCK);
        long start = System.nanoTime();
        synchronized (sharedLock) {
            long acquired = System.nanoTime();
            t.waitedForLock(acquired - start);
            Thread.sleep(LOCK_HOLD_MILLIS);
            t.heldLock(System.nanoTime() - acquired);
            return (acquired - start) / 1_000_000;
        }
    }
}
