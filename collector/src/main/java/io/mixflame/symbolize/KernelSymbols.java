package io.mixflame.symbolize;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.mixflame.cache.OffHeapArray;
import java.util.Arrays;

/**
 * The kernel's function symbols from {@code /proc/kallsyms}, for naming kernel frames. Addresses read as zero
 * unless the reader is privileged ({@code kptr_restrict}); no name is then found and kernel frames are named by
 * address.
 *
 * <p>The file has some 120 000 lines ({@code ffffffff81000000 T _stext}), the kernel's own in address order, then
 * those of modules ({@code … [module]}, in any order), and is larger than ten megabytes. It is read once, through a
 * small buffer, keeping only what names functions: their addresses in a sorted array and their names, one after
 * another — a fifth of the file, some 5 MB, all of it outside the Java heap ({@link OffHeapArray}): in the heap it was
 * the largest thing the profiler kept there, copied by the application's collector and counted in its sizing.
 */
public final class KernelSymbols {
    /** Lines longer than this are no symbol line of any kernel; they are skipped. */
    private static final int MAX_LINE = 1024;
    /** Bound the table whatever the file holds: functions, and 64 KiB chunks of names (32 MiB). */
    static final int MAX_FUNCTIONS = 1 << 21;
    static final int MAX_CHUNKS = 512;
    private static final int NAME_AT = 19;
    private static final byte END = '\n';
    private static final int CHUNK_BITS = 16;
    /** Bytes of names per chunk; a name start is its chunk's number times this plus its offset in the chunk. */
    static final int CHUNK = 1 << CHUNK_BITS;
    /** Typical kernels have some 120 000 functions: the arrays are made this large at once, and double past it. */
    private static final int FIRST_CAPACITY = 1 << 17;

    /** Sorted; the first {@link #count} entries are valid (the arrays are kept as built rather than copied). */
    private final OffHeapArray addresses;
    /**
     * Where each function's name starts: chunk of {@link #names} in the high bits, offset in it in the low
     * {@link #CHUNK_BITS}; a name ends at the next {@code '\n'}.
     */
    private final OffHeapArray nameStarts;
    /**
     * The names, in chunks that are filled and never copied: growing one array by doubling allocated twice the
     * names' size.
     */
    private final OffHeapArray[] names;
    private final int count;
    private final int moduleFunctions;
    /** Bytes used in the last chunk of {@link #names}. */
    private final int lastChunkBytes;
    /** The address of the file's first function line: where the kernel was placed at boot (KASLR). */
    private final long firstLineAddress;

    KernelSymbols(OffHeapArray addresses, OffHeapArray nameStarts, OffHeapArray[] names, int count,
                  int moduleFunctions, int lastChunkBytes, long firstLineAddress) {
        this.addresses = addresses;
        this.nameStarts = nameStarts;
        this.names = names;
        this.count = count;
        this.moduleFunctions = moduleFunctions;
        this.lastChunkBytes = lastChunkBytes;
        this.firstLineAddress = firstLineAddress;
    }

    /** Reads {@code /proc/kallsyms}; an unreadable file gives an empty table. */
    public static KernelSymbols load() {
        try (InputStream in = Files.newInputStream(Path.of("/proc/kallsyms"))) {
            return parse(in);
        } catch (IOException | RuntimeException e) {
            return new Builder().build();
        }
    }

    /** Indexes the text of {@code /proc/kallsyms}. */
    static KernelSymbols parse(byte[] text) {
        try {
            return parse(new ByteArrayInputStream(text));
        } catch (IOException e) {
            throw new IllegalStateException("a byte array cannot fail to be read", e);
        }
    }

    private static KernelSymbols parse(InputStream in) throws IOException {
        Builder table = new Builder();
        byte[] chunk = new byte[64 * 1024];
        // One more than a line holds: the name's terminator is written after it before it is copied.
        byte[] line = new byte[MAX_LINE + 1];
        int length = 0;
        boolean overlong = false;
        for (int n = in.read(chunk); n > 0; n = in.read(chunk)) {
            for (int i = 0; i < n; i++) {
                byte c = chunk[i];
                if (c == '\n') {
                    if (!overlong) {
                        table.line(line, length);
                    }
                    length = 0;
                    overlong = false;
                } else if (length < MAX_LINE) {
                    line[length++] = c;
                } else {
                    overlong = true;
                }
            }
        }
        if (!overlong && length > 0) {
            table.line(line, length);
        }
        return table.build();
    }

    /**
     * The address of the first function line in the start of {@code /proc/kallsyms} ({@code head}, whole lines
     * only), 0 when it holds none with an address: the reader is not privileged, or the head is too short.
     */
    static long firstLineAddress(byte[] head, int length) {
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (head[i] != '\n') {
                continue;
            }
            int n = i - start;
            if (n > NAME_AT && head[start + 16] == ' ' && head[start + 18] == ' '
                    && (head[start + 17] == 't' || head[start + 17] == 'T')) {
                long address = Builder.address(Arrays.copyOfRange(head, start, start + 16));
                if (address != 0 && address != -1) {
                    return address;
                }
            }
            start = i + 1;
        }
        return 0;
    }

    /** The function holding a kernel address, or its hex form. */
    public String name(long address) {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(addresses.getLong(mid), address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return "[kernel 0x" + Long.toHexString(address) + "]";
        }
        int at = nameStarts.getInt(found);
        if ((at >>> CHUNK_BITS) >= names.length) {
            return "[kernel 0x" + Long.toHexString(address) + "]";
        }
        OffHeapArray chunk = names[at >>> CHUNK_BITS];
        int start = at & (CHUNK - 1);
        int end = start;
        // Bounded by the chunk: a name read from an index file ends at its chunk's end at the latest.
        int limit = Math.min(chunk.capacity(), start + MAX_LINE);
        while (end < limit && chunk.getByte(end) != END) {
            end++;
        }
        byte[] name = new byte[end - start];
        for (int i = 0; i < name.length; i++) {
            name[i] = chunk.getByte(start + i);
        }
        return new String(name, StandardCharsets.ISO_8859_1);
    }

    /** Number of functions of kernel modules (lines tagged {@code [module]}). */
    int moduleFunctions() {
        return moduleFunctions;
    }

    /** Number of functions kept. */
    int functions() {
        return count;
    }

    /** The address of the file's first function line, 0 when it had none. */
    long firstLineAddress() {
        return firstLineAddress;
    }

    /** The sorted addresses, {@link #functions()} of them. */
    OffHeapArray addresses() {
        return addresses;
    }

    /** Where each function's name starts in the names' chunks laid end to end. */
    OffHeapArray nameStarts() {
        return nameStarts;
    }

    /** The names' chunks: all but the last {@link #CHUNK} bytes long, as used. */
    OffHeapArray[] nameChunks() {
        return names;
    }

    /** Bytes of the names, the chunks laid end to end. */
    long nameBytes() {
        return names.length == 0 ? 0 : (long) (names.length - 1) * CHUNK + lastChunkBytes;
    }

    /** Collects the function lines of the file, growing its arrays by doubling up to the bound. */
    private static final class Builder {
        // Made at the first function: an unprivileged reader sees only zero addresses and keeps none.
        private OffHeapArray addresses;
        private OffHeapArray nameStarts;
        private OffHeapArray[] chunks = new OffHeapArray[16];
        private int chunkCount;
        /** Bytes used in the last chunk. */
        private int used = CHUNK;
        private int count;
        private int modules;
        private boolean sorted = true;
        private long firstLineAddress;

        void line(byte[] line, int length) {
            if (length <= NAME_AT || line[16] != ' ' || line[18] != ' ' || (line[17] != 't' && line[17] != 'T')
                    || count == MAX_FUNCTIONS) {
                return;
            }
            long address = address(line);
            if (address == 0 || address == -1) {
                return;
            }
            int end = NAME_AT;
            while (end < length && line[end] != '\t') {
                end++;
            }
            if (end < length) {
                modules++;
            }
            if (addresses == null) {
                addresses = new OffHeapArray(Long.BYTES, FIRST_CAPACITY);
                nameStarts = new OffHeapArray(Integer.BYTES, FIRST_CAPACITY);
                firstLineAddress = address;
            }
            addresses.ensure(count + 1);
            nameStarts.ensure(count + 1);
            int nameLength = end - NAME_AT;
            if (used + nameLength + 1 > CHUNK) {
                if (chunkCount == MAX_CHUNKS) {
                    return;
                }
                if (chunkCount == chunks.length) {
                    chunks = Arrays.copyOf(chunks, chunkCount * 2);
                }
                chunks[chunkCount++] = new OffHeapArray(1, CHUNK);
                used = 0;
            }
            if (count > 0 && Long.compareUnsigned(addresses.getLong(count - 1), address) > 0) {
                sorted = false;
            }
            addresses.setLong(count, address);
            nameStarts.setInt(count, (chunkCount - 1) << CHUNK_BITS | used);
            OffHeapArray chunk = chunks[chunkCount - 1];
            line[NAME_AT + nameLength] = END;
            chunk.setBytes(used, line, NAME_AT, nameLength + 1);
            used += nameLength + 1;
            count++;
        }

        KernelSymbols build() {
            if (addresses == null) {
                addresses = new OffHeapArray(Long.BYTES, 1);
                nameStarts = new OffHeapArray(Integer.BYTES, 1);
            }
            if (!sorted) {
                heapSort(addresses, nameStarts, count);
            }
            return new KernelSymbols(addresses, nameStarts, Arrays.copyOf(chunks, chunkCount), count, modules,
                    chunkCount == 0 ? 0 : used, firstLineAddress);
        }

        /** Sixteen hex digits at the start of a line, or -1 when they are not. */
        static long address(byte[] line) {
            long value = 0;
            for (int i = 0; i < 16; i++) {
                int c = line[i];
                int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                if (digit < 0) {
                    return -1;
                }
                value = (value << 4) | digit;
            }
            return value;
        }

        /**
         * Sorts by unsigned address, the name starts following. Only module lines are out of order; a heap sort on
         * the two primitive arrays needs no boxing and no second copy.
         */
        private static void heapSort(OffHeapArray keys, OffHeapArray values, int n) {
            for (int i = n / 2 - 1; i >= 0; i--) {
                siftDown(keys, values, i, n);
            }
            for (int end = n - 1; end > 0; end--) {
                swap(keys, values, 0, end);
                siftDown(keys, values, 0, end);
            }
        }

        private static void siftDown(OffHeapArray keys, OffHeapArray values, int root, int n) {
            int i = root;
            while (2 * i + 1 < n) {
                int child = 2 * i + 1;
                if (child + 1 < n && Long.compareUnsigned(keys.getLong(child + 1), keys.getLong(child)) > 0) {
                    child++;
                }
                if (Long.compareUnsigned(keys.getLong(i), keys.getLong(child)) >= 0) {
                    return;
                }
                swap(keys, values, i, child);
                i = child;
            }
        }

        private static void swap(OffHeapArray keys, OffHeapArray values, int a, int b) {
            long k = keys.getLong(a);
            keys.setLong(a, keys.getLong(b));
            keys.setLong(b, k);
            int v = values.getInt(a);
            values.setInt(a, values.getInt(b));
            values.setInt(b, v);
        }
    }
}
