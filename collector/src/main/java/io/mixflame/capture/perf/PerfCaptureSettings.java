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
    /** The largest {@code sample_stack_user} perf accepts: a record's size is 16 bits, and the size must be 8-aligned. */
    public static final int MAX_STACK_BYTES = 65528;
    /** Bytes a sample record takes beyond its stack copy: header, ids, time, registers, a kernel callchain. */
    public static final int RECORD_OVERHEAD_BYTES = 1024;

    public PerfCaptureSettings {
        if (stackBytes % 8 != 0 || stackBytes < 0 || stackBytes > MAX_STACK_BYTES) {
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

    /**
     * Ring-buffer data pages for a thread whose copy was grown to {@code grownStackBytes}: as many records of that
     * size fit as {@link #dataPages()} hold of {@link #stackBytes()}, so a grown thread loses no more samples than
     * another between drains, and the sampler's pacing, worked out for the default, holds for it too.
     */
    public int dataPagesFor(int grownStackBytes) {
        if (grownStackBytes <= stackBytes) {
            return dataPages;
        }
        long records = Math.max(1, ringDataBytes() / (stackBytes + RECORD_OVERHEAD_BYTES));
        long bytes = records * (grownStackBytes + RECORD_OVERHEAD_BYTES);
        long pages = (bytes + PAGE_BYTES - 1) / PAGE_BYTES;
        return (int) Math.max(dataPages, Long.highestOneBit(pages - 1) << 1);
    }

    /** The defaults for a process and a period. */
    public static PerfCaptureSettings defaults(long pid, long periodNanos) {
        return new PerfCaptureSettings(pid, periodNanos, DEFAULT_STACK_BYTES, DEFAULT_DATA_PAGES, DEFAULT_MAX_THREADS,
                true);
    }
}
