package io.mixflame.capture.perf;

/**
 * How the perf capture samples.
 *
 * @param pid          the process whose threads are sampled (this one or another)
 * @param periodNanos  the sampling period of each thread's cpu-clock event
 * @param stackBytes   bytes of user stack copied with each sample (a multiple of 8, at most 65528)
 * @param dataPages    pages of each thread's ring buffer (a power of two)
 * @param maxThreads   threads sampled at most (one descriptor and one buffer each)
 * @param kernel       sample in the kernel too, with kernel callchains (needs permission; falls back without)
 */
public record PerfCaptureSettings(long pid, long periodNanos, int stackBytes, int dataPages, int maxThreads,
                                  boolean kernel) {
    /** The page size the ring buffers are laid out in. */
    public static final int PAGE_BYTES = 4096;
    /** Default bytes of stack per sample. */
    public static final int DEFAULT_STACK_BYTES = 16 * 1024;
    /**
     * Default ring-buffer data pages per thread: 128 KiB with 4 KiB pages, room for about seven samples of 16 KiB, so
     * that a sampler thread held off the CPU for a few ticks loses nothing.
     */
    public static final int DEFAULT_DATA_PAGES = 32;
    /** Default limit on sampled threads. */
    public static final int DEFAULT_MAX_THREADS = 1024;

    public PerfCaptureSettings {
        if (stackBytes % 8 != 0 || stackBytes < 0 || stackBytes > 65528) {
            throw new IllegalArgumentException("stack bytes must be a multiple of 8 up to 65528");
        }
        if (Integer.bitCount(dataPages) != 1) {
            throw new IllegalArgumentException("ring-buffer pages must be a power of two");
        }
    }

    /** Bytes of sample data each thread's ring buffer holds (its header page left out). */
    public long ringDataBytes() {
        return (long) dataPages * PAGE_BYTES;
    }

    /** The defaults for a process and a period. */
    public static PerfCaptureSettings defaults(long pid, long periodNanos) {
        return new PerfCaptureSettings(pid, periodNanos, DEFAULT_STACK_BYTES, DEFAULT_DATA_PAGES, DEFAULT_MAX_THREADS,
                true);
    }
}
