package io.mixflame.examples.traced;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * {@code traced [--virtual]}: Jetty 12's core API serving {@code /inline} and {@code /pooled} ({@link TracedHandler}),
 * the pooled work on a fixed pool of platform threads, or with {@code --virtual} on a virtual thread per task (JDK 21
 * and later). It prints {@code port N} and serves until the time is up; the load comes from outside.
 */
public final class TracedWorkload {
    private TracedWorkload() {
    }

    /** Serves for {@code seconds}. */
    public static void run(boolean virtual, int seconds) throws Exception {
        ExecutorService pool = virtual ? virtualThreads() : Executors.newFixedThreadPool(4);
        Server server = new Server(new QueuedThreadPool(16, 4));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new TracedHandler(pool));
        server.start();
        try {
            System.out.println("port " + connector.getLocalPort() + (virtual ? " (virtual threads)" : ""));
            System.out.flush();
            Thread.sleep(seconds * 1000L);
            System.out.println("traced: served for " + seconds + " s");
        } finally {
            server.stop();
            pool.shutdown();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, found by name so that the examples build on JDK 17. */
    private static ExecutorService virtualThreads() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }
}
