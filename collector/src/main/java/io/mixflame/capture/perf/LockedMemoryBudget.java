package io.mixflame.capture.perf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How large the per-CPU rings may be: large enough to hold {@link #LAG_NANOS} of samples while the sampler thread
 * waits (for a core on a machine with many more runnable threads than cores, or at a safepoint), within what the user
 * may lock. The kernel charges perf rings first to the user's {@code kernel.perf_event_mlock_kb} per online CPU
 * (shared by every perf buffer the user maps), then to the process's {@code RLIMIT_MEMLOCK} ({@code ulimit -l}, 8 MiB
 * by default); a process with {@code CAP_IPC_LOCK} (root) is not limited. The rings take at most half of
 * {@code ulimit -l}, which other users of locked memory in the same process (another profiler, io_uring) share, and
 * at most {@link #MOST_BYTES} in all; never less than the size the allowance alone gives. Where the kernel still
 * refuses (another process of the user holds its allowance), the capture halves them.
 */
public final class LockedMemoryBudget {
    /** How long the rings should hold samples that no thread drains. */
    static final long LAG_NANOS = 2_000_000_000L;
    /** The most the rings take in all where nothing limits them (root). */
    static final long MOST_BYTES = 64L << 20;
    /** The most of a {@code /proc} file read. */
    private static final int MOST_PROC_BYTES = 16 * 1024;

    private final long allowanceBytes;
    /** {@code RLIMIT_MEMLOCK}'s soft limit, or -1 when unlimited. */
    private final long rlimitBytes;
    private final boolean ipcLock;

    /**
     * @param allowanceBytes the user's perf allowance for all CPUs ({@code perf_event_mlock_kb} times the online CPUs)
     * @param rlimitBytes    {@code RLIMIT_MEMLOCK}'s soft limit, -1 when unlimited
     * @param ipcLock        whether the process has {@code CAP_IPC_LOCK}
     */
    public LockedMemoryBudget(long allowanceBytes, long rlimitBytes, boolean ipcLock) {
        this.allowanceBytes = Math.max(0, allowanceBytes);
        this.rlimitBytes = rlimitBytes;
        this.ipcLock = ipcLock;
    }

    /** This process's budget, from {@code /proc}; the allowance alone where it cannot be read. */
    public static LockedMemoryBudget ofThisProcess(int onlineCpus) {
        long mlockKb = readLong(Path.of("/proc/sys/kernel/perf_event_mlock_kb"), 516);
        long rlimit = 0;
        boolean ipcLock = false;
        try {
            rlimit = rlimitOf(procText(Path.of("/proc/self/limits")));
            ipcLock = ipcLockOf(procText(Path.of("/proc/self/status")));
        } catch (IOException | RuntimeException e) {
            // the allowance alone
        }
        return new LockedMemoryBudget(mlockKb * 1024 * Math.max(1, onlineCpus), rlimit, ipcLock);
    }

    /**
     * Data pages for each of {@code cpus} rings (a power of two, at least {@code leastPages}) sampled every
     * {@code periodNanos} with records of {@code recordBytes}.
     */
    public int ringPages(int cpus, long periodNanos, long recordBytes, int leastPages) {
        long perCpuSamples = LAG_NANOS / Math.max(1, periodNanos);
        long wanted = pagesAtLeast(perCpuSamples * recordBytes);
        long mayLock = unlimited() ? MOST_BYTES : Math.min(MOST_BYTES, allowanceBytes + rlimitBytes / 2);
        // Each ring has a header page besides its data.
        long fits = mayLock / Math.max(1, cpus) / PerfCaptureSettings.PAGE_BYTES - 1;
        long pages = Math.min(wanted, fits < 1 ? 1 : Long.highestOneBit(fits));
        return (int) Math.max(leastPages, pages);
    }

    /** Why the rings are the size {@link #ringPages} gave: for the cost note. */
    public String why() {
        String limit = unlimited() ? (ipcLock ? "CAP_IPC_LOCK" : "ulimit -l unlimited") + ", at most "
                + (MOST_BYTES >> 20) + " MiB in all"
                : "within kernel.perf_event_mlock_kb (" + allowanceBytes / 1024
                + " KiB for the user) and half of ulimit -l (" + rlimitBytes / 1024 + " KiB)";
        return "sized to hold " + LAG_NANOS / 1_000_000_000L + " s of samples no thread has drained, " + limit;
    }

    private boolean unlimited() {
        return ipcLock || rlimitBytes < 0;
    }

    private static long pagesAtLeast(long bytes) {
        long pages = Math.max(1, (bytes + PerfCaptureSettings.PAGE_BYTES - 1) / PerfCaptureSettings.PAGE_BYTES);
        return Long.bitCount(pages) == 1 ? pages : Long.highestOneBit(pages) << 1;
    }

    /** {@code Max locked memory}'s soft limit in {@code /proc/PID/limits}, in bytes; -1 when unlimited, 0 if absent. */
    static long rlimitOf(String limits) {
        for (String line : limits.split("\n")) {
            if (line.startsWith("Max locked memory")) {
                String[] f = line.substring("Max locked memory".length()).trim().split("\\s+");
                return f[0].equals("unlimited") ? -1 : Long.parseLong(f[0]);
            }
        }
        return 0;
    }

    /** Whether {@code CapEff} in {@code /proc/PID/status} holds {@code CAP_IPC_LOCK} (bit 14). */
    static boolean ipcLockOf(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("CapEff:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 14)) != 0;
            }
        }
        return false;
    }

    /**
     * A {@code /proc} file's text, read to its end: {@code Files.readString} trusts the size the file reports, which
     * is 0 for these, and returned "5" for a {@code perf_event_mlock_kb} of 516.
     */
    private static String procText(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(MOST_PROC_BYTES), StandardCharsets.US_ASCII);
        }
    }

    private static long readLong(Path file, long otherwise) {
        try {
            return Long.parseLong(procText(file).trim());
        } catch (IOException | RuntimeException e) {
            return otherwise;
        }
    }
}
