package io.mixflame.capture.perf;

import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.LinuxErrno;
import io.mixflame.process.linux.ProcThreadSource;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every thread of one process with perf_events: one cpu-clock event and ring buffer per thread (the
 * kernel refuses to map an inherited per-task event, and per-task events cannot share a buffer across threads),
 * new threads found by polling {@code /proc/PID/task}, events of ended threads closed, and the number of
 * descriptors bounded. Not thread-safe: one sampler thread drives it.
 */
public final class PerfCapture implements SampleCapture {
    private static final Logger LOG = LoggerFactory.getLogger(PerfCapture.class);

    private final PerfCaptureSettings settings;
    private final PerfSyscalls sys;
    private final ThreadSource threads;
    private final int pageSize;
    private final Map<Integer, ThreadEvent> events = new HashMap<>();
    /**
     * The events' ring buffers as an array for the drain, which runs every poll: made again only after the events
     * change, so that the steady state iterates no HashMap (whose iterator code the service's JIT would otherwise
     * compile with C2 for the profiler, in code it shares with the service).
     */
    private PerfRingBuffer[] rings;
    private final Set<Integer> refused = new HashSet<>();
    /** One reader for every drain, so that polling many buffers allocates nothing. */
    private final PerfRecords records;
    private byte[] attr;
    private boolean kernel;
    /** The profiler's own threads, sorted: their events copy no stack. */
    private int[] own = new int[0];
    private boolean limitReported;
    private boolean mapReported;
    private int mapFailures;

    /** One thread's event, and the stack copy it was opened with. */
    private record ThreadEvent(int fd, long address, long length, PerfRingBuffer ring, int stackBytes) {
    }

    /** A capture of the threads of {@code settings.pid()}, listed from {@code /proc}. */
    public PerfCapture(PerfCaptureSettings settings, PerfSyscalls sys) {
        this(settings, sys, new ProcThreadSource(settings.pid()));
    }

    /**
     * @param settings what to sample
     * @param sys      the perf system calls
     * @param threads  the process's threads
     */
    public PerfCapture(PerfCaptureSettings settings, PerfSyscalls sys, ThreadSource threads) {
        this.settings = settings;
        this.sys = sys;
        this.threads = threads;
        this.pageSize = PerfCaptureSettings.PAGE_BYTES;
        this.records = new PerfRecords(settings.stackBytes(), null);
    }

    /**
     * Opens events for the threads the process has now.
     *
     * @throws PerfCaptureUnavailableException when the kernel refuses perf events at all; the message explains
     */
    public void start() throws PerfCaptureUnavailableException {
        start(new int[0]);
    }

    @Override
    public void start(int[] ownThreads) throws PerfCaptureUnavailableException {
        UserRegisters.requireKnownArchitecture();
        own = ownThreads.clone();
        Arrays.sort(own);
        kernel = settings.kernel();
        configure();
        int first = firstThread();
        int fd = sys.perfEventOpen(attr, first, PerfAbi.FLAG_FD_CLOEXEC);
        if (fd < 0 && kernel && (fd == -LinuxErrno.EACCES || fd == -LinuxErrno.EPERM)) {
            LOG.info("kernel frames are not permitted ({}); sampling user space only", PerfRefusal.explain(fd));
            kernel = false;
            configure();
            fd = sys.perfEventOpen(attr, first, PerfAbi.FLAG_FD_CLOEXEC);
        }
        if (fd < 0) {
            throw new PerfCaptureUnavailableException(PerfRefusal.explain(fd));
        }
        if (!register(first, fd, settings.stackBytes(), true)) {
            mapFailures++;
            throw new PerfCaptureUnavailableException("the perf ring buffer could not be mapped (perf_event_mlock_kb "
                    + "or RLIMIT_MEMLOCK too low for " + (settings.dataPages() + 1) * pageSize / 1024 + " KiB)");
        }
        refreshThreads();
    }

    private void configure() {
        attr = attributes(settings.stackBytes());
        records.kernelFrames(kernel);
    }

    /** The event every thread gets, with a stack copy of {@code stackBytes}. */
    private byte[] attributes(int stackBytes) {
        return PerfEventAttr.cpuClock(settings.periodNanos(), UserRegisters.MASK, stackBytes, kernel, 1);
    }

    /** Whether samples carry kernel callchains. */
    @Override
    public boolean kernelFrames() {
        return kernel;
    }

    private int firstThread() throws PerfCaptureUnavailableException {
        int[] tids = threads.list();
        if (tids.length == 0) {
            throw new PerfCaptureUnavailableException("process " + settings.pid() + " has no threads or cannot be read");
        }
        return tids[0];
    }

    /** The process's thread count now (a cheap test for started or ended threads), or -1. */
    @Override
    public int threadCount() {
        return threads.count();
    }

    /** Opens events for threads started since the last call and closes those of threads that ended. */
    @Override
    public void refreshThreads() {
        int[] tids = threads.list();
        if (tids.length == 0) {
            return;
        }
        Set<Integer> alive = new HashSet<>(tids.length * 2);
        for (int tid : tids) {
            alive.add(tid);
        }
        refreshThreads(alive);
    }

    /** The same, with the process's threads already listed by the caller. */
    @Override
    public void refreshThreads(Set<Integer> alive) {
        for (Iterator<Map.Entry<Integer, ThreadEvent>> it = events.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, ThreadEvent> e = it.next();
            if (!alive.contains(e.getKey())) {
                release(e.getValue());
                it.remove();
                rings = null;
            }
        }
        refused.retainAll(alive);
        for (int tid : alive) {
            if (events.containsKey(tid) || refused.contains(tid)) {
                continue;
            }
            if (events.size() >= settings.maxThreads()) {
                if (!limitReported) {
                    limitReported = true;
                    LOG.warn("sampling {} threads, the limit; further threads are not sampled", settings.maxThreads());
                }
                return;
            }
            boolean ownThread = Arrays.binarySearch(own, tid) >= 0;
            int fd = sys.perfEventOpen(ownThread ? attributes(0) : attr, tid, PerfAbi.FLAG_FD_CLOEXEC);
            if (fd < 0) {
                if (fd != -LinuxErrno.ESRCH) {
                    refused.add(tid);
                }
                continue;
            }
            if (!register(tid, fd, ownThread ? 0 : settings.stackBytes(), true)) {
                refused.add(tid);
                mapFailures++;
                if (!mapReported) {
                    mapReported = true;
                    LOG.warn("a perf ring buffer could not be mapped after {} threads: the locked-memory limit is reached "
                            + "(kernel.perf_event_mlock_kb, ulimit -l); further threads are not sampled", events.size());
                }
            }
        }
    }

    /**
     * Maps the ring buffer of a new event, sized for its stack copy, and records it for {@code tid} (enabled when
     * {@code enable}); closes the event when the buffer cannot be mapped.
     */
    private boolean register(int tid, int fd, int stackBytes, boolean enable) {
        int dataPages = settings.dataPagesFor(stackBytes);
        long length = (long) pageSize * (dataPages + 1);
        long address = sys.mmap(fd, length);
        if (address < 0 && address > -4096) {
            sys.close(fd);
            return false;
        }
        events.put(tid, new ThreadEvent(fd, address, length, new PerfRingBuffer(address, pageSize, dataPages),
                stackBytes));
        rings = null;
        if (enable) {
            sys.ioctl(fd, PerfAbi.IOC_ENABLE);
        }
        return true;
    }

    /**
     * Reopens thread {@code tid}'s event with a stack copy of {@code stackBytes} (its other settings as they were) and
     * a ring buffer sized for it, for a thread whose walks need more of its stack than the copy held. The new event is
     * opened and mapped before the old one is drained, into {@code consumer}, and closed, so a thread whose new event
     * the kernel refuses (the locked-memory limit) keeps its old one.
     *
     * @return whether the thread's copy is now that large
     */
    @Override
    public boolean growStack(int tid, int stackBytes, Consumer<RawSample> consumer) {
        ThreadEvent old = events.get(tid);
        int bytes = Math.min(stackBytes, PerfCaptureSettings.MAX_STACK_BYTES) & ~7;
        if (old == null || old.stackBytes() >= bytes) {
            return false;
        }
        return reopen(tid, old, bytes, consumer);
    }

    /**
     * Reopens thread {@code tid}'s event without a stack copy, for a thread whose samples are counted and never
     * walked (the profiler's own): the kernel then copies no stack for it (16 KiB per sample of the walker, a fifth
     * of the sampler's and walker's CPU at 1 ms). Drains the old event into {@code consumer} first, as
     * {@link #growStack} does.
     *
     * @return whether the thread's event copies no stack now (false while it has no event yet)
     */
    public boolean copyNoStack(int tid, Consumer<RawSample> consumer) {
        ThreadEvent old = events.get(tid);
        if (old == null) {
            return false;
        }
        return old.stackBytes() == 0 || reopen(tid, old, 0, consumer);
    }

    private boolean reopen(int tid, ThreadEvent old, int bytes, Consumer<RawSample> consumer) {
        int fd = sys.perfEventOpen(attributes(bytes), tid, PerfAbi.FLAG_FD_CLOEXEC);
        if (fd < 0) {
            LOG.debug("thread {}: a stack copy of {} bytes was refused ({})", tid, bytes, PerfRefusal.explain(fd));
            return false;
        }
        if (!register(tid, fd, bytes, false)) {
            LOG.debug("thread {}: no ring buffer could be mapped for a stack copy of {} bytes", tid, bytes);
            return false;
        }
        records.reserveStack(bytes);
        records.drain(old.ring(), consumer);
        release(old);
        sys.ioctl(fd, PerfAbi.IOC_ENABLE);
        LOG.debug("thread {}: stack copy changed from {} to {} bytes", tid, old.stackBytes(), bytes);
        return true;
    }

    /** Bytes of stack thread {@code tid}'s samples carry, or 0 when it is not sampled. */
    @Override
    public int stackBytes(int tid) {
        ThreadEvent e = events.get(tid);
        return e == null ? 0 : e.stackBytes();
    }

    /** Whether thread {@code tid} is sampled now. */
    @Override
    public boolean sampling(int tid) {
        return events.containsKey(tid);
    }

    /**
     * Reads every ring buffer and hands each sample to the consumer. The sample object is reused: a consumer that
     * keeps it must copy it.
     *
     * @return the number of samples delivered
     */
    @Override
    public int drain(Consumer<RawSample> consumer) {
        long before = records.samples();
        PerfRingBuffer[] all = rings;
        if (all == null) {
            all = new PerfRingBuffer[events.size()];
            int i = 0;
            for (ThreadEvent e : events.values()) {
                all[i++] = e.ring();
            }
            rings = all;
        }
        records.drain(all, consumer);
        return (int) (records.samples() - before);
    }

    /** True: each thread's event has a page of its own. */
    @Override
    public boolean tellsTimeRunning() {
        return true;
    }

    /**
     * How long thread {@code tid} has run while sampled, read from its event's mapped page (no system call), or -1
     * when it is not sampled.
     */
    @Override
    public long timeRunning(int tid) {
        ThreadEvent e = events.get(tid);
        return e == null ? -1 : e.ring().timeRunning();
    }

    /** Samples delivered so far. */
    @Override
    public long samples() {
        return records.samples();
    }

    /** Samples the kernel reported lost (a full ring buffer). */
    @Override
    public long lost() {
        return records.lost();
    }

    /** Times the kernel throttled an event. */
    public long throttled() {
        return records.throttled();
    }

    /** Records that did not have the expected shape. */
    public long malformed() {
        return records.malformed();
    }

    /** Threads sampled now. */
    public int threads() {
        return events.size();
    }

    @Override
    public String describe() {
        int pages = settings.dataPages() + 1;
        String text = "perf ring buffers: one per thread, " + events.size() + " x " + pages * pageSize / 1024
                + " KiB locked; " + events.size() + " threads sampled";
        if (!refused.isEmpty()) {
            text += ", " + refused.size() + " not sampled (" + (mapFailures > 0 ? "locked memory spent" : "refused")
                    + ")";
        }
        return text;
    }

    private void release(ThreadEvent e) {
        sys.munmap(e.address(), e.length());
        sys.close(e.fd());
    }

    @Override
    public void close() {
        for (ThreadEvent e : events.values()) {
            release(e);
        }
        events.clear();
        rings = null;
    }
}
