package io.mixflame.engine.jfr;

/**
 * Which of the JDK's own events a {@link JdkEventStream} records.
 *
 * @param allocBytes  allocation profiling: {@link #OFF}; 0 for every sample JFR's throttle lets through; else the
 *                    mean number of bytes per sample kept (async-profiler's {@code alloc=SIZE}): samples standing for
 *                    fewer bytes are kept by chance in proportion to their bytes and then stand for this many
 * @param lockNanos   lock profiling: {@link #OFF}, else the shortest wait recorded (async-profiler's
 *                    {@code lock=DURATION})
 * @param threadRoots whether every stack starts with a frame naming its thread
 * @param lines       whether Java frames carry their sampled line
 */
public record JdkEventSettings(long allocBytes, long lockNanos, boolean threadRoots, boolean lines) {
    /** The value of {@code allocBytes} or {@code lockNanos} that leaves the event off. */
    public static final long OFF = -1;

    public boolean alloc() {
        return allocBytes != OFF;
    }

    public boolean lock() {
        return lockNanos != OFF;
    }
}
