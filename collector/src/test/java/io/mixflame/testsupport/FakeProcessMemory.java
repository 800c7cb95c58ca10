package io.mixflame.testsupport;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.util.HashMap;
import java.util.Map;

/**
 * The memory of an imaginary process, for tests: 4 KiB pages that exist only where the test wrote something (or
 * mapped zeros), so that addresses anywhere in the 64-bit space can be used and every other address fails to read,
 * as unmapped memory does.
 */
public final class FakeProcessMemory implements ProcessMemory {
    private static final int PAGE = 4096;

    private final Map<Long, byte[]> pages = new HashMap<>();
    private long reads;

    @Override
    public long pid() {
        return -1;
    }

    /** Makes {@code [address, address + length)} readable, as zeros where nothing was written yet. */
    public FakeProcessMemory map(long address, long length) {
        for (long page = pageOf(address); page < address + length; page += PAGE) {
            pages.computeIfAbsent(page, p -> new byte[PAGE]);
        }
        return this;
    }

    /** Makes {@code [address, address + length)} unreadable again (whole pages). */
    public FakeProcessMemory unmap(long address, long length) {
        for (long page = pageOf(address); page < address + length; page += PAGE) {
            pages.remove(page);
        }
        return this;
    }

    /** Writes bytes, mapping the pages they fall in. */
    public FakeProcessMemory write(long address, byte[] bytes) {
        int done = 0;
        while (done < bytes.length) {
            long a = address + done;
            int inPage = (int) (a - pageOf(a));
            int n = Math.min(bytes.length - done, PAGE - inPage);
            System.arraycopy(bytes, done, pages.computeIfAbsent(pageOf(a), p -> new byte[PAGE]), inPage, n);
            done += n;
        }
        return this;
    }

    public FakeProcessMemory writeByte(long address, int value) {
        return write(address, new byte[] {(byte) value});
    }

    public FakeProcessMemory writeInt(long address, int value) {
        return write(address, new LittleEndianWriter().u32(value).toByteArray());
    }

    public FakeProcessMemory writeLong(long address, long value) {
        return write(address, new LittleEndianWriter().u64(value).toByteArray());
    }

    /** Writes a NUL-terminated string. */
    public FakeProcessMemory writeCString(long address, String s) {
        return write(address, new LittleEndianWriter().cstring(s).toByteArray());
    }

    @Override
    public int read(long address, byte[] target, int offset, int length) {
        reads++;
        int done = 0;
        while (done < length) {
            long a = address + done;
            byte[] page = pages.get(pageOf(a));
            if (page == null) {
                return done;
            }
            int inPage = (int) (a - pageOf(a));
            int n = Math.min(length - done, PAGE - inPage);
            System.arraycopy(page, inPage, target, offset + done, n);
            done += n;
        }
        return length;
    }

    @Override
    public long readLong(long address) throws MemoryReadException {
        byte[] b = new byte[8];
        if (!readFully(address, b, 0, 8)) {
            throw new MemoryReadException(address);
        }
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[i] & 0xff);
        }
        return v;
    }

    @Override
    public int readInt(long address) throws MemoryReadException {
        byte[] b = new byte[4];
        if (!readFully(address, b, 0, 4)) {
            throw new MemoryReadException(address);
        }
        return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 | b[3] << 24;
    }

    /** Every read, readLong and readInt counts as one, as one system call would. */
    @Override
    public long systemReads() {
        return reads;
    }

    @Override
    public void close() {
        // nothing to release
    }

    private static long pageOf(long address) {
        return address & ~(long) (PAGE - 1);
    }
}
