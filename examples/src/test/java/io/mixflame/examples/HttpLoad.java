package io.mixflame.examples;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/** A test's client: asks a local server for path after path until told to stop, counting the answers. */
final class HttpLoad {
    private HttpLoad() {
    }

    /**
     * Asks {@code http://127.0.0.1:PORT} for {@code path.apply(n)}, n = 0, 1, 2… (n counts answers), while
     * {@code serving}; a refused or failed request (the server not answering yet, or gone) is tried again shortly.
     */
    static void run(int port, AtomicBoolean serving, AtomicLong answered, LongFunction<String> path) {
        long n = 0;
        while (serving.get()) {
            try {
                HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path.apply(n))
                        .toURL().openConnection();
                c.setConnectTimeout(2000);
                c.setReadTimeout(30_000);
                try (InputStream in = c.getInputStream()) {
                    in.readAllBytes();
                }
                answered.incrementAndGet();
                n++;
            } catch (IOException e) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }
}
