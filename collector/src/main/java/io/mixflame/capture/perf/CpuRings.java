package io.mixflame.capture.perf;

import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The ring buffers of a {@link PerCpuPerfCapture}, one per CPU, each mapped from the event that owns it (the other
 * events of that CPU write into it): their descriptors, mappings and readers, at the CPU's index.
 */
final class CpuRings {
    /** How long a drain waits for the relay's pass it asks for: 0 unless the reader needs records up to now. */
    private long relayWaitNanos;
    private final PerfSyscalls sys;
    private final int[] fds;
    private final long[] addresses;
    private final long[] lengths;
    private final PerfRingBuffer[] rings;
    /** The relay the rings are read through, or null: read directly. */
    private RingRelay relay;
    /** Why there is no relay, for the note; null when there is one or none was asked for. */
    private String noRelay;
    /** What the relay held, once it stopped. */
    private String relayNote;
    /** See {@link #completeAt}. */
    private long completeAt = Long.MIN_VALUE;
    /**
     * How long before a moment the kernel may have stamped a record that it publishes in the ring after that moment:
     * the time between its clock read and its store of the ring's head, on another CPU, is microseconds.
     */
    private static final long PUBLISH_MARGIN_NANOS = 1_000_000L;

    CpuRings(int cpus, PerfSyscalls sys) {
        this.sys = sys;
        this.fds = new int[cpus];
        this.addresses = new long[cpus];
        this.lengths = new long[cpus];
        this.rings = new PerfRingBuffer[cpus];
        Arrays.fill(fds, -1);
    }

    /**
     * Maps a ring of {@code dataPages} for CPU {@code index} from its event {@code fd}.
     *
     * @return false, the event closed, when the kernel refused the mapping (locked memory)
     */
    boolean map(int index, int fd, int dataPages) {
        long length = (long) PerfCaptureSettings.PAGE_BYTES * (dataPages + 1);
        long address = sys.mmap(fd, length);
        if (address < 0 && address > -4096) {
            sys.close(fd);
            return false;
        }
        fds[index] = fd;
        addresses[index] = address;
        lengths[index] = length;
        rings[index] = new PerfRingBuffer(address, PerfCaptureSettings.PAGE_BYTES, dataPages);
        return true;
    }

    /**
     * Starts the relay ({@link RingRelay}) of the rings, each mapped with {@code dataPages}, sampled every
     * {@code periodNanos} with records of {@code recordBytes}: from now on they are read through it. Where it cannot
     * start, they are read directly, and {@link #describeRelay} says why.
     */
    void relay(int dataPages, long periodNanos, long recordBytes) {
        long source = (long) dataPages * PerfCaptureSettings.PAGE_BYTES;
        long[] sources = new long[rings.length];
        long[] sizes = new long[rings.length];
        for (int i = 0; i < rings.length; i++) {
            if (rings[i] == null) {
                noRelay = "CPU " + i + " has no ring";
                return;
            }
            sources[i] = addresses[i];
            sizes[i] = source;
        }
        String[] why = new String[1];
        RingRelay started = RingRelay.start(sources, sizes,
                RingRelay.ringBytes(rings.length, source, periodNanos, recordBytes), why);
        if (started == null) {
            noRelay = why[0];
            return;
        }
        relay = started;
        int relayPages = (int) (started.ringBytes() / PerfCaptureSettings.PAGE_BYTES);
        for (int i = 0; i < rings.length; i++) {
            rings[i] = new PerfRingBuffer(started.ring(i), PerfCaptureSettings.PAGE_BYTES, relayPages);
        }
    }

    /** What the relay holds, or why there is none, for the cost note; also once it stopped. */
    String describeRelay() {
        RingRelay r = relay;
        if (r != null) {
            return describe(r);
        }
        return relayNote != null ? relayNote : noRelay == null ? "" : "read directly: " + noRelay;
    }

    private String describe(RingRelay r) {
        long full = r.full();
        long source = Math.max(1, lengths[0] - PerfCaptureSettings.PAGE_BYTES);
        // How near the relay came to losing records (a kernel ring's fullest, its longest time without a core) and
        // what it cost: for a machine with many more runnable threads than cores, where it waits for a core too.
        return "relayed by a native thread every " + RingRelay.PERIOD_NANOS / 1_000_000 + " ms into " + rings.length
                + " x " + r.ringBytes() / 1024 + " KiB of ordinary memory (" + r.moved() + " records of "
                + r.bytes() / 1024 + " KiB moved with " + r.cpuNanos() / 1_000_000 + " ms of CPU, its passes at most "
                + r.longestPauseNanos() / 1_000_000 + " ms apart, a kernel ring at most "
                + Math.min(100, r.mostWaitingBytes() * 100 / source) + "% full" + (full == 0 ? ""
                : ", found full " + full + " times") + ")";
    }

    /** Stops the relay, once it moved what it could, and frees its rings; the rings are read directly after. */
    private void stopRelay() {
        RingRelay r = relay;
        if (r != null) {
            relay = null;
            r.stop();
            relayNote = describe(r);
            r.free();
        }
    }

    /**
     * The metadata pages (perf's layout) of the rings where samples wait for their reader: the relay's, or the
     * kernel's where they are read directly. They stay mapped until the capture closes.
     */
    long[] waitingPages() {
        RingRelay r = relay;
        long[] pages = new long[rings.length];
        int n = 0;
        for (int i = 0; i < rings.length; i++) {
            long page = rings[i] == null ? 0 : r != null ? r.ring(i) : addresses[i];
            if (page != 0) {
                pages[n++] = page;
            }
        }
        return Arrays.copyOf(pages, n);
    }

    /** Unmaps and closes the rings of the first {@code count} CPUs. */
    void unmapAndClose(int count) {
        stopRelay();
        for (int i = 0; i < count; i++) {
            sys.munmap(addresses[i], lengths[i]);
            sys.close(fds[i]);
            rings[i] = null;
            fds[i] = -1;
        }
    }

    /** The descriptor of CPU {@code index}'s ring, which that CPU's other events write into. */
    int fd(int index) {
        return fds[index];
    }

    /** Reads every ring's records, up to now (the relay moves what is new first). */
    void drain(PerfRecords records, Consumer<RawSample> into) {
        drain(records, into, null);
    }

    /** Drains every ring into {@code into} while {@code room} says it takes one more; the rest stay in the rings. */
    void drain(PerfRecords records, Consumer<RawSample> into, BooleanSupplier room) {
        long asOf = flushRelay();
        if (records.drain(rings, into, room)) {
            completeAt = Math.max(completeAt, asOf);
        }
    }

    /**
     * The time ({@code CLOCK_MONOTONIC}) before which every record the kernel wrote has been handed over by the drains
     * so far: when the relay's last complete pass began, or when a drain that read the kernel's rings directly began
     * (less a margin for a record stamped just before then and published just after); unchanged by a drain that left
     * records in the rings.
     */
    long completeAt() {
        return completeAt;
    }

    /** Has each drain wait (a bounded time) for a relay pass that began after it asked: for the wall clock. */
    void awaitRelayPasses() {
        relayWaitNanos = RingRelay.FLUSH_WAIT_NANOS;
    }

    /** Waits at most {@code waitNanos} for a pass of the relay that begins now, if there is one. */
    void awaitRelay(long waitNanos) {
        RingRelay r = relay;
        if (r != null) {
            r.flush(waitNanos);
        }
    }

    /** Asks the relay for a pass (and waits for it, for the wall clock); when the records to be read were current. */
    private long flushRelay() {
        RingRelay r = relay;
        if (r != null) {
            r.flush(relayWaitNanos);
            return r.passedAt() - PUBLISH_MARGIN_NANOS;
        }
        return System.nanoTime() - PUBLISH_MARGIN_NANOS;
    }

    /** Unmaps every ring; their descriptors are closed with the capture's other events. */
    void unmap() {
        stopRelay();
        for (int i = 0; i < rings.length; i++) {
            if (rings[i] != null) {
                sys.munmap(addresses[i], lengths[i]);
                rings[i] = null;
            }
        }
    }
}
