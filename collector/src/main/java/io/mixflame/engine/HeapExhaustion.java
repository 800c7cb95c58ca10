package io.mixflame.engine;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an engine's own threads do when the Java heap they share with the application is exhausted: the profiler
 * gives way. Its threads stop sampling and drop what they hold (the engine checks {@link #reached}), the samples
 * taken so far stay for the profile, and one log line says why. The application meets its own OutOfMemoryError or
 * none; never one that the profiler's threads left it, and never the profiler's stack trace.
 */
public final class HeapExhaustion {
    private static final Logger LOG = LoggerFactory.getLogger(HeapExhaustion.class);

    private final String engine;
    private volatile boolean reached;

    /** @param engine the engine's name, for the log line */
    public HeapExhaustion(String engine) {
        this.engine = engine;
    }

    /** Whether the heap was found exhausted: the engine's threads then stop. */
    public boolean reached() {
        return reached;
    }

    /** Records that an allocation of the profiler failed; logs once. Never throws. */
    public void reach() {
        if (reached) {
            return;
        }
        reached = true;
        try {
            LOG.error("profiling stopped: the Java heap is exhausted and the profiler gives way to the application "
                    + "(the {} engine's samples so far are kept)", engine);
        } catch (Throwable e) {
            // Logging may need the memory that is missing: the flag is what stops the engine.
        }
    }
}
