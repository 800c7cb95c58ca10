package io.mixflame.examples.churn;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongUnaryOperator;

/** Defines {@link ChurnPayload} in a new throwaway loader, runs it once, and drops loader, class and instance. */
final class ClassChurn {
    private static final String PAYLOAD = "io.mixflame.examples.churn.ChurnPayload";
    /** Long enough for C2 to compile the payload's call site before the other shapes arrive. */
    private static final long WARM_NANOS = 20_000_000L;

    private final byte[] payloadBytes;
    private long defined;
    /** Keeps the JIT from discarding the payloads' work. */
    private volatile long sink;

    ClassChurn() throws IOException {
        try (InputStream in = ClassChurn.class.getResourceAsStream("/" + PAYLOAD.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new IOException("no class file for " + PAYLOAD);
            }
            payloadBytes = in.readAllBytes();
        }
    }

    /** One payload copy: defined, run, dropped. */
    void once() throws ReflectiveOperationException {
        ThrowawayLoader loader = new ThrowawayLoader(ClassChurn.class.getClassLoader(), PAYLOAD, payloadBytes);
        Class<?> c = loader.loadClass(PAYLOAD);
        if (c.getClassLoader() != loader) {
            throw new IllegalStateException(PAYLOAD + " came from " + c.getClassLoader() + ", not a throwaway loader");
        }
        LongUnaryOperator payload = (LongUnaryOperator) c.getDeclaredConstructor().newInstance();
        sink = payload.applyAsLong(WARM_NANOS);
        defined++;
    }

    /** How many copies were defined. */
    long defined() {
        return defined;
    }
}
