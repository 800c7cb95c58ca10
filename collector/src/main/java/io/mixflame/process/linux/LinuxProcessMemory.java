package io.mixflame.process.linux;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.mixflame.process.ChunkedProcessMemory;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link ProcessMemory} over {@code process_vm_readv(2)}, for the own process as for another: the kernel checks
 * every address, so reading an unmapped or protected one fails with EFAULT instead of a SIGSEGV in the JVM.
 * A process of another user needs the permission ptrace would need.
 */
public final class LinuxProcessMemory extends ChunkedProcessMemory {

    static {
        Native.register(LinuxProcessMemory.class, LibcLibrary.get());
    }

    private static native long process_vm_readv(int pid, Pointer localIov, long localCount, Pointer remoteIov,
                                                long remoteCount, long flags);

    private static native long process_vm_writev(int pid, Pointer localIov, long localCount, Pointer remoteIov,
                                                 long remoteCount, long flags);

    /** Spans gathered by one system call at most (the kernel's {@code IOV_MAX} is 1024). */
    private static final int GATHERED = 512;

    private final int pid;
    /** The remote iovecs of gathered reads (into the chunk buffer): made at the first such read. */
    private Memory gather;
    /** Two struct iovec: the local one at 0, the remote one at 16. */
    private final Memory iovecs = new Memory(32);
    /** The remote iovec, made once: a Pointer made per read would be an allocation on the sampling path. */
    private final Pointer remoteIovec = iovecs.share(16);

    /** A reader of the process with this pid. */
    public LinuxProcessMemory(long pid) {
        if (pid <= 0 || pid > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("not a pid: " + pid);
        }
        this.pid = (int) pid;
        iovecs.setPointer(0, buffer);
    }

    /** A reader of the process it runs in. */
    public static LinuxProcessMemory self() {
        return new LinuxProcessMemory(OwnPid.get());
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    protected int readChunk(long address, int length) {
        iovecs.setLong(8, length);
        iovecs.setLong(16, address);
        iovecs.setLong(24, length);
        countSystemRead();
        long got = process_vm_readv(pid, iovecs, 1, remoteIovec, 1, 0);
        return (int) Math.max(got, 0);
    }

    /** {@link #readSpans} of a word each, read back as little-endian words. */
    @Override
    public void readWords(long[] addresses, int count, long[] words, boolean[] read) {
        int[] lengths = new int[count];
        int[] offsets = new int[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = 8;
            offsets[i] = 8 * i;
        }
        byte[] bytes = new byte[8 * count];
        readSpans(addresses, lengths, count, bytes, offsets, read);
        ByteBuffer view = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            words[i] = read[i] ? view.getLong(8 * i) : 0;
        }
    }

    /**
     * One {@code process_vm_readv} for as many spans as fit the chunk buffer ({@value #GATHERED} at most): the remote
     * iovecs are the spans, the local one the buffer. A span the kernel cannot read ends its call's transfer there,
     * so it is marked unread and the next call starts after it. A span longer than the buffer is read alone; one at
     * address 0 (a null pointer followed) is unread without a call, and does not end another call's transfer.
     */
    @Override
    public void readSpans(long[] addresses, int[] lengths, int spans, byte[] target, int[] offsets, boolean[] read) {
        if (gather == null) {
            gather = new Memory(16L * GATHERED);
        }
        int at = 0;
        while (at < spans) {
            if (addresses[at] == 0) {
                read[at] = false;
                at++;
                continue;
            }
            if (lengths[at] > CHUNK || lengths[at] <= 0) {
                read[at] = lengths[at] == 0 || readFully(addresses[at], target, offsets[at], lengths[at]);
                at++;
                continue;
            }
            int n = 0;
            long bytes = 0;
            while (at + n < spans && n < GATHERED && addresses[at + n] != 0 && lengths[at + n] > 0
                    && bytes + lengths[at + n] <= CHUNK) {
                gather.setLong(16L * n, addresses[at + n]);
                gather.setLong(16L * n + 8, lengths[at + n]);
                bytes += lengths[at + n];
                n++;
            }
            iovecs.setLong(8, bytes);
            countSystemRead();
            long got = Math.max(0, process_vm_readv(pid, iovecs, 1, gather, n, 0));
            long copied = 0;
            int whole = 0;
            while (whole < n && copied + lengths[at + whole] <= got) {
                buffer.read(copied, target, offsets[at + whole], lengths[at + whole]);
                read[at + whole] = true;
                copied += lengths[at + whole];
                whole++;
            }
            if (whole < n) {
                read[at + whole] = false;
                whole++;
            }
            at += whole;
        }
    }

    @Override
    public boolean writeByte(long address, byte value) {
        try (Memory one = new Memory(1); Memory iov = new Memory(32)) {
            one.setByte(0, value);
            iov.setPointer(0, one);
            iov.setLong(8, 1);
            iov.setLong(16, address);
            iov.setLong(24, 1);
            return process_vm_writev(pid, iov, 1, iov.share(16), 1, 0) == 1;
        }
    }

    @Override
    protected void release() {
        iovecs.close();
        if (gather != null) {
            gather.close();
        }
    }
}
