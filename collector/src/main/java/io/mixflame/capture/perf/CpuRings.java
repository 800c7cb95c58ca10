package io.mixflame.capture.perf;

import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The ring buffers of a {@link PerCpuPerfCapture}, one per CPU, each mapped from the event that owns it (the other
 * events of that CPU write into it): their descriptors, mappings and readers, at the CPU's index.
 */
final class CpuRings {
    private final PerfSyscalls sys;
    private final int[] fds;
    private final long[] addresses;
    private final long[] lengths;
    private final PerfRingBuffer[] rings;

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

    /** Unmaps and closes the rings of the first {@code count} CPUs. */
    void unmapAndClose(int count) {
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

    /** Reads every ring's records. */
    void drain(PerfRecords records, Consumer<RawSample> into) {
        records.drain(rings, into);
    }

    /** Drains every ring into {@code into} while {@code room} says it takes one more; the rest stay in the rings. */
    void drain(PerfRecords records, Consumer<RawSample> into, BooleanSupplier room) {
        records.drain(rings, into, room);
    }

    /** Unmaps every ring; their descriptors are closed with the capture's other events. */
    void unmap() {
        for (int i = 0; i < rings.length; i++) {
            if (rings[i] != null) {
                sys.munmap(addresses[i], lengths[i]);
                rings[i] = null;
            }
        }
    }
}
