package io.mixflame.capture.perf;

import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.LinuxErrno;
import io.mixflame.process.linux.ProcThreadSource;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples every thread of one process into one ring buffer per CPU, as {@code perf record} does: the threads the
 * process has at start get an inherited cpu-clock event on each CPU ({@code pid=tid, cpu=c, inherit}), whose output
 * goes to that CPU's ring ({@code PERF_EVENT_IOC_SET_OUTPUT}); every thread started from then on gets events of its
 * own from the kernel, at its birth, without a descriptor or a buffer. So locked memory is one ring per CPU whatever
 * the number of threads (the kernel charges it to the user: {@code perf_event_mlock_kb} per CPU, then
 * {@code RLIMIT_MEMLOCK}), a short-lived thread is sampled from its first instruction, and no thread waits for a
 * poll of {@code /proc} to be found.
 *
 * <p>Descriptors: one per thread alive at start and CPU. They stay open until {@link #close}, also after their thread
 * ends, as closing an inherited event ends the events its thread's descendants inherited. A process with too many
 * threads for that (an attach to a large service) is refused with {@link PerfCaptureUnavailableException}, and the
 * caller samples it per thread.
 *
 * <p>A thread whose walks need a larger stack copy gets events of its own with that copy, on every CPU, into the same
 * rings; its samples from the inherited event (the smaller copy) are dropped from then on. The profiler's own threads
 * get events without a copy: their samples are counted, never walked. Not thread-safe: one sampler thread drives it.
 * Its rings ({@link CpuRings}), the events it keeps open ({@link InheritedEvents}), its grown threads
 * ({@link GrownThreads}) and what it adds to the reading of records ({@link PerCpuRecords}) are classes of their own.
 */
public final class PerCpuPerfCapture implements SampleCapture {
    private static final Logger LOG = LoggerFactory.getLogger(PerCpuPerfCapture.class);
    /**
     * The least data pages of each CPU's ring: 512 KiB, what {@code kernel.perf_event_mlock_kb}'s default gives each CPU,
     * about thirty samples of 16 KiB; larger where the user may lock more ({@link LockedMemoryBudget}).
     */
    public static final int DEFAULT_DATA_PAGES = 128;
    /** The part of the open-file limit the start-up threads' events may take. */
    private static final int FILE_LIMIT_SHARE = 4;
    /** Threads that may have a larger copy at once, each with an event per CPU. */
    private static final int MAX_GROWN = StackCopyGrowth.DEFAULT_THREADS;
    /** How often the threads are listed again at start, for threads a listed thread started before its events. */
    private static final int START_LISTINGS = 4;

    private final PerfCaptureSettings settings;
    private final PerfSyscalls sys;
    private final ThreadSource threads;
    private final int[] cpus;
    private final long fileBudget;
    private int dataPages;
    private final int requestedPages;
    private final CpuRings rings;
    private final GrownThreads grown;
    private final PerCpuRecords extras;
    private final PerfRecords records;
    private boolean kernel;
    /** Whether events are inherited by threads only (not by forked processes); dropped on kernels without it. */
    private boolean threadsOnly = true;
    /** Every event opened, but for the grown threads' own (in {@link #grown}). */
    private final InheritedEvents events;
    /** Threads given events directly: alive at start, or the profiler's own. */
    private final Set<Integer> covered = new HashSet<>();
    private int[] own = new int[0];
    /** Why the rings are the size asked, for the cost note; null when the caller chose it. */
    private String sized;
    /**
     * Whether the rings are read through a relay thread ({@link RingRelay}): the kernel's, made by the capture itself;
     * not rings a caller gave (tests that write records and read them at once).
     */
    private boolean relayed;

    /** A capture of the threads of {@code settings.pid()}, listed from {@code /proc}, on every online CPU. */
    public PerCpuPerfCapture(PerfCaptureSettings settings, PerfSyscalls sys) {
        this(settings, sys, new ProcThreadSource(settings.pid()), OnlineCpus.list(), OpenFileLimit.soft(),
                LockedMemoryBudget.ofThisProcess(OnlineCpus.list().length));
    }

    private PerCpuPerfCapture(PerfCaptureSettings settings, PerfSyscalls sys, ThreadSource threads, int[] cpus,
                              long fileLimit, LockedMemoryBudget budget) {
        this(settings, sys, threads, cpus, fileLimit, budget.ringPages(cpus.length, settings.periodNanos(),
                settings.stackBytes() + PerfCaptureSettings.RECORD_OVERHEAD_BYTES, DEFAULT_DATA_PAGES));
        sized = budget.why();
        relayed = true;
    }

    /**
     * @param settings   what to sample (its data pages are those of a per-thread ring, not used here)
     * @param sys        the perf system calls
     * @param threads    the process's threads
     * @param cpus       the CPUs to open events on
     * @param fileLimit  this process's open-file limit
     * @param dataPages  data pages of each CPU's ring (a power of two), halved while the kernel refuses the mapping
     */
    public PerCpuPerfCapture(PerfCaptureSettings settings, PerfSyscalls sys, ThreadSource threads, int[] cpus,
                             long fileLimit, int dataPages) {
        if (Integer.bitCount(dataPages) != 1 || cpus.length == 0) {
            throw new IllegalArgumentException("a power of two of pages and at least one CPU");
        }
        this.settings = settings;
        this.sys = sys;
        this.threads = threads;
        this.cpus = cpus.clone();
        this.fileBudget = fileLimit / FILE_LIMIT_SHARE;
        this.dataPages = dataPages;
        this.requestedPages = dataPages;
        this.rings = new CpuRings(cpus.length, sys);
        this.grown = new GrownThreads(MAX_GROWN, sys);
        this.events = new InheritedEvents(sys);
        this.extras = new PerCpuRecords(settings.pid(), settings.stackBytes(), grown);
        this.records = new PerfRecords(settings.stackBytes(), extras);
    }

    @Override
    public void start(int[] ownThreads) throws PerfCaptureUnavailableException {
        UserRegisters.requireKnownArchitecture();
        own = ownThreads.clone();
        Arrays.sort(own);
        kernel = settings.kernel();
        records.kernelFrames(kernel);
        int[] tids = threads.list();
        if (tids.length == 0) {
            throw new PerfCaptureUnavailableException("process " + settings.pid() + " has no threads or cannot be read");
        }
        checkBudget(tids.length);
        try {
            openRings(tids);
            Set<Integer> seen = new HashSet<>();
            for (int listing = 0; listing < START_LISTINGS; listing++) {
                boolean added = false;
                for (int tid : tids) {
                    if (seen.add(tid)) {
                        added = true;
                        checkBudget(seen.size());
                        openThread(tid, Arrays.binarySearch(own, tid) >= 0);
                    }
                }
                if (!added) {
                    break;
                }
                // A listed thread may have started one between the listing and its events: list again.
                tids = threads.list();
            }
        } catch (PerfCaptureUnavailableException e) {
            close();
            throw e;
        }
        if (relayed) {
            rings.relay(dataPages, settings.periodNanos(),
                    settings.stackBytes() + PerfCaptureSettings.RECORD_OVERHEAD_BYTES);
        }
        LOG.debug("per-CPU perf capture: {} CPUs, rings of {} KiB, {} threads given events at start", cpus.length,
                dataPages * PerfCaptureSettings.PAGE_BYTES / 1024, covered.size());
    }

    private void checkBudget(int threadCount) throws PerfCaptureUnavailableException {
        long needed = (long) threadCount * cpus.length;
        if (needed > fileBudget) {
            throw new PerfCaptureUnavailableException(threadCount + " threads on " + cpus.length + " CPUs need "
                    + needed + " descriptors for per-CPU buffers, more than a " + FILE_LIMIT_SHARE
                    + "th of the open-file limit (" + fileBudget * FILE_LIMIT_SHARE + ")");
        }
    }

    /**
     * Opens the first thread's event on each CPU with a ring of its own, choosing kernel frames or not by what the
     * kernel allows, and one size for every CPU's ring by what locked memory allows: halved, all rings mapped anew,
     * while the kernel refuses one, down to two records.
     */
    private void openRings(int[] tids) throws PerfCaptureUnavailableException {
        int first = -1;
        for (int tid : tids) {
            if (Arrays.binarySearch(own, tid) < 0) {
                first = tid;
                break;
            }
        }
        if (first < 0) {
            first = tids[0];
        }
        int least = leastPages();
        while (!mapRings(first)) {
            if (dataPages / 2 < least) {
                throw new PerfCaptureUnavailableException("no per-CPU perf ring buffers could be mapped, even of "
                        + dataPages * PerfCaptureSettings.PAGE_BYTES / 1024 + " KiB each (kernel.perf_event_mlock_kb, "
                        + "ulimit -l: the user's locked memory is spent)");
            }
            dataPages /= 2;
        }
        for (int i = 0; i < cpus.length; i++) {
            events.keep(rings.fd(i));
            sys.ioctl(rings.fd(i), PerfAbi.IOC_ENABLE);
        }
        covered.add(first);
    }

    /**
     * Maps a ring of {@link #dataPages} on every CPU for {@code first}'s events.
     *
     * @return false, with nothing left mapped or open, when the kernel refused a mapping
     */
    private boolean mapRings(int first) throws PerfCaptureUnavailableException {
        for (int i = 0; i < cpus.length; i++) {
            int fd = open(first, i, settings.stackBytes(), true);
            if (fd == -LinuxErrno.EINVAL && i == 0 && threadsOnly) {
                LOG.debug("this kernel has no inherit_thread: processes the JVM forks are sampled and left out");
                threadsOnly = false;
                fd = open(first, i, settings.stackBytes(), true);
            }
            if (fd < 0 && i == 0 && kernel && (fd == -LinuxErrno.EACCES || fd == -LinuxErrno.EPERM)) {
                LOG.info("kernel frames are not permitted ({}); sampling user space only", PerfRefusal.explain(fd));
                kernel = false;
                records.kernelFrames(false);
                fd = open(first, i, settings.stackBytes(), true);
            }
            if (fd < 0) {
                rings.unmapAndClose(i);
                throw new PerfCaptureUnavailableException(PerfRefusal.explain(fd));
            }
            if (!rings.map(i, fd, dataPages)) {
                rings.unmapAndClose(i);
                return false;
            }
        }
        return true;
    }

    /** The fewest pages that hold two records of the largest copy asked for. */
    private int leastPages() {
        long bytes = 2L * (settings.stackBytes() + PerfCaptureSettings.RECORD_OVERHEAD_BYTES);
        long pages = (bytes + PerfCaptureSettings.PAGE_BYTES - 1) / PerfCaptureSettings.PAGE_BYTES;
        return (int) Math.max(1, Long.highestOneBit(pages - 1) << 1);
    }

    /** Gives thread {@code tid} its events on every CPU (none for the first thread, which has them). */
    private void openThread(int tid, boolean ownThread) throws PerfCaptureUnavailableException {
        if (covered.contains(tid)) {
            return;
        }
        int bytes = ownThread ? 0 : settings.stackBytes();
        int opened = 0;
        for (int i = 0; i < cpus.length; i++) {
            int fd = open(tid, i, bytes, !ownThread);
            if (fd == -LinuxErrno.ESRCH) {
                return; // ended meanwhile; the events opened already end with it
            }
            if (fd < 0) {
                throw new PerfCaptureUnavailableException("thread " + tid + ": " + PerfRefusal.explain(fd));
            }
            events.keep(fd);
            int redirected = sys.ioctl(fd, PerfAbi.IOC_SET_OUTPUT, rings.fd(i));
            if (redirected < 0) {
                throw new PerfCaptureUnavailableException("the kernel refused to share a CPU's perf ring buffer ("
                        + PerfRefusal.explain(redirected) + ")");
            }
            sys.ioctl(fd, PerfAbi.IOC_ENABLE);
            opened++;
        }
        if (opened == cpus.length) {
            covered.add(tid);
        }
    }

    /**
     * Opens an event; inherited ones also report threads' names: once a name, as only the event of the CPU the thread
     * runs on when it is named reports it.
     */
    private int open(int tid, int cpuIndex, int stackBytes, boolean inherit) {
        byte[] attr = PerfEventAttr.cpuClock(settings.periodNanos(), UserRegisters.MASK, stackBytes, kernel, 1,
                inherit, inherit, threadsOnly, inherit && extras.switchesWanted());
        return sys.perfEventOpen(attr, tid, cpus[cpuIndex], PerfAbi.FLAG_FD_CLOEXEC);
    }

    @Override
    public boolean kernelFrames() {
        return kernel;
    }

    @Override
    public int threadCount() {
        return threads.count();
    }

    /**
     * Closes the events of grown threads that ended, asking after each of them alone (at most
     * {@value #MAX_GROWN}): new threads need nothing, as they inherited their events, so the process's threads, a
     * thousand or more, are not listed.
     */
    @Override
    public void refreshThreads() {
        grown.closeEnded(threads);
    }

    /** Whether thread {@code tid} lives: every thread of the process is sampled. */
    @Override
    public boolean sampling(int tid) {
        return threads.alive(tid);
    }

    @Override
    public boolean growStack(int tid, int stackBytes, Consumer<RawSample> consumer) {
        int bytes = Math.min(stackBytes, PerfCaptureSettings.MAX_STACK_BYTES) & ~7;
        int at = grown.indexOf(tid);
        int had = at < 0 ? settings.stackBytes() : grown.bytes(at);
        if (bytes <= had || Arrays.binarySearch(own, tid) >= 0 || (at < 0 && grown.full())) {
            return false;
        }
        int[] opened = new int[cpus.length];
        for (int i = 0; i < cpus.length; i++) {
            int fd = open(tid, i, bytes, false);
            int redirected = fd < 0 ? fd : sys.ioctl(fd, PerfAbi.IOC_SET_OUTPUT, rings.fd(i));
            if (fd < 0 || redirected < 0) {
                LOG.debug("thread {}: a stack copy of {} bytes was refused ({})", tid, bytes,
                        PerfRefusal.explain(fd < 0 ? fd : redirected));
                if (fd >= 0) {
                    sys.close(fd);
                }
                for (int k = 0; k < i; k++) {
                    sys.close(opened[k]);
                }
                return false;
            }
            opened[i] = fd;
        }
        records.reserveStack(bytes);
        for (int fd : opened) {
            sys.ioctl(fd, PerfAbi.IOC_ENABLE);
        }
        grown.put(at, tid, bytes, opened);
        LOG.debug("thread {}: stack copy changed from {} to {} bytes", tid, had, bytes);
        return true;
    }

    @Override
    public int stackBytes(int tid) {
        if (Arrays.binarySearch(own, tid) >= 0) {
            return 0;
        }
        int at = grown.indexOf(tid);
        return at < 0 ? settings.stackBytes() : grown.bytes(at);
    }

    @Override
    public long[] waitingRings() {
        return rings.waitingPages();
    }

    @Override
    public int drain(Consumer<RawSample> consumer) {
        long before = records.samples();
        rings.drain(records, consumer);
        return (int) (records.samples() - before);
    }

    /**
     * Hands samples over while {@code room} says there is room; the rest wait in the rings, which hold seconds of
     * them ({@link LockedMemoryBudget}), rather than being dropped by a walker that fell behind.
     */
    @Override
    public int drain(Consumer<RawSample> consumer, BooleanSupplier room) {
        long before = records.samples();
        rings.drain(records, consumer, room);
        return (int) (records.samples() - before);
    }

    @Override
    public boolean holdsBack() {
        return true;
    }

    @Override
    public void drainUpToNow() {
        rings.awaitRelayPasses();
    }

    @Override
    public long recordsCompleteAt() {
        return rings.completeAt();
    }

    @Override
    public void awaitRecords(long waitNanos) {
        rings.awaitRelay(waitNanos);
    }

    @Override
    public void onThreadNamed(ThreadNameListener listener) {
        extras.onThreadNamed(listener);
    }

    @Override
    public boolean onThreadSwitched(SwitchListener listener) {
        extras.onThreadSwitched(listener);
        return true;
    }

    @Override
    public boolean reportsSwitches() {
        return extras.switchesWanted();
    }

    @Override
    public long samples() {
        return records.samples();
    }

    @Override
    public long lost() {
        return records.lost();
    }

    /** Records that did not have the expected shape. */
    public long malformed() {
        return records.malformed();
    }

    /** Samples of processes the sampled one forked, left out. */
    public long foreign() {
        return extras.foreign();
    }

    /** Samples of grown threads taken by their inherited event too, and left out. */
    public long superseded() {
        return extras.superseded();
    }

    @Override
    public String describe() {
        String smaller = dataPages < requestedPages ? " (smaller than the " + (requestedPages + 1)
                * PerfCaptureSettings.PAGE_BYTES / 1024 + " KiB asked: the user's locked memory is short)" : "";
        return "perf ring buffers: one per CPU, " + cpus.length + " x " + (dataPages + 1) * PerfCaptureSettings.PAGE_BYTES
                / 1024 + " KiB locked" + (sized == null ? "" : " (" + sized + ")") + smaller + relayed()
                + "; every thread sampled (" + threads.count() + " now), " + events.opened()
                + " descriptors for the " + covered.size() + " threads alive at start, inherited by those started since";
    }

    private String relayed() {
        String relay = rings.describeRelay();
        return relay.isEmpty() ? "" : ", " + relay;
    }

    /** CPUs sampled. */
    public int cpus() {
        return cpus.length;
    }

    /** Data pages of each CPU's ring, as mapped. */
    public int dataPages() {
        return dataPages;
    }

    @Override
    public void close() {
        grown.close();
        rings.unmap();
        events.close();
    }
}
