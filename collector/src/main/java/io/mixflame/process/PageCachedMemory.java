package io.mixflame.process;

import java.util.Arrays;

/**
 * A reader of memory that does not change while it is read — a JVM's static tables, read once at attach — that keeps
 * the last pages it read and serves reads within them without asking the system again: the tables' thousands of
 * words and names, read one by one, then cost a system call per page rather than per word (without it, attaching
 * reads libjvm's tables word by word, twice, at every start). Bounded by its page count; not for memory that changes.
 *
 * <p>A page that cannot be read whole is not kept: reads in it go to the underlying reader as they are asked.
 */
public final class PageCachedMemory implements ProcessMemory {
    private static final int PAGE_SHIFT = 12;
    private static final int PAGE = 1 << PAGE_SHIFT;

    private final ProcessMemory memory;
    private final long[] pageAddresses;
    private final byte[][] pages;
    private final byte[] word = new byte[8];
    private int next;

    /**
     * @param memory the reader to read through; stays open and owned by the caller
     * @param pages  how many pages to keep at most, the oldest given up first
     */
    public PageCachedMemory(ProcessMemory memory, int pages) {
        if (pages < 1) {
            throw new IllegalArgumentException("pages " + pages);
        }
        this.memory = memory;
        this.pageAddresses = new long[pages];
        this.pages = new byte[pages][];
        Arrays.fill(pageAddresses, -1);
    }

    @Override
    public long pid() {
        return memory.pid();
    }

    @Override
    public int read(long address, byte[] target, int offset, int length) {
        int done = 0;
        while (done < length) {
            long at = address + done;
            byte[] page = page(at & -PAGE);
            if (page == null) {
                return done + memory.read(at, target, offset + done, length - done);
            }
            int from = (int) (at & (PAGE - 1));
            int n = Math.min(length - done, PAGE - from);
            System.arraycopy(page, from, target, offset + done, n);
            done += n;
        }
        return done;
    }

    @Override
    public long readLong(long address) throws MemoryReadException {
        if (read(address, word, 0, 8) != 8) {
            throw new MemoryReadException(address);
        }
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (word[i] & 0xff);
        }
        return v;
    }

    @Override
    public int readInt(long address) throws MemoryReadException {
        if (read(address, word, 0, 4) != 4) {
            throw new MemoryReadException(address);
        }
        return (word[0] & 0xff) | (word[1] & 0xff) << 8 | (word[2] & 0xff) << 16 | (word[3] & 0xff) << 24;
    }

    @Override
    public long systemReads() {
        return memory.systemReads();
    }

    /** Closes nothing: the underlying reader is the caller's. */
    @Override
    public void close() {
    }

    /** The page at {@code pageAddress}, read now when not kept; null when it cannot be read whole. */
    private byte[] page(long pageAddress) {
        if (pageAddress <= 0) {
            return null;
        }
        for (int i = 0; i < pageAddresses.length; i++) {
            if (pageAddresses[i] == pageAddress) {
                return pages[i];
            }
        }
        byte[] page = pages[next] != null ? pages[next] : new byte[PAGE];
        if (!memory.readFully(pageAddress, page, 0, PAGE)) {
            return null;
        }
        pages[next] = page;
        pageAddresses[next] = pageAddress;
        next = (next + 1) % pages.length;
        return page;
    }
}
