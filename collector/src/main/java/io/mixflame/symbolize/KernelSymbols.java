package io.mixflame.symbolize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The kernel's function symbols from {@code /proc/kallsyms}, for naming kernel frames. Addresses read as zero
 * unless the reader is privileged ({@code kptr_restrict}); the table is then empty and kernel frames are named by
 * address.
 *
 * <p>The file has some 200 000 lines. It is parsed byte by byte into primitive arrays (addresses, and offsets into
 * one array of name bytes), sorted as packed longs, and a name becomes a string only when a frame asks for it: the
 * profiler's first kernel frame must not cost a second of parsing, nor a burst of the application's JIT compiling
 * the parser.
 */
public final class KernelSymbols {
    private static final int MAX_SYMBOLS = 1 << 20;
    private static final int INDEX_BITS = 20;
    private static final int MAX_BYTES = 64 << 20;

    private final long[] addresses;
    private final int[] nameStarts;
    private final byte[] nameBytes;

    private KernelSymbols(long[] addresses, int[] nameStarts, byte[] nameBytes) {
        this.addresses = addresses;
        this.nameStarts = nameStarts;
        this.nameBytes = nameBytes;
    }

    /** Reads {@code /proc/kallsyms}; an unreadable file gives an empty table. */
    public static KernelSymbols load() {
        try (InputStream in = Files.newInputStream(Path.of("/proc/kallsyms"))) {
            return parse(in.readNBytes(MAX_BYTES));
        } catch (IOException | RuntimeException e) {
            return parse(new byte[0]);
        }
    }

    /** Parses the text of {@code /proc/kallsyms}: {@code ffffffff81000000 T _stext [module]} per line. */
    static KernelSymbols parse(byte[] text) {
        long[] found = new long[1 << 16];
        int[] starts = new int[1 << 16];
        byte[] names = new byte[1 << 20];
        int count = 0;
        int used = 0;
        int pos = 0;
        while (pos < text.length && count < MAX_SYMBOLS) {
            int eol = indexOf(text, (byte) '\n', pos, text.length);
            int end = eol < 0 ? text.length : eol;
            int nameEnd = end;
            if (end - pos > 19 && text[pos + 16] == ' ' && text[pos + 18] == ' '
                    && (text[pos + 17] == 't' || text[pos + 17] == 'T')) {
                long address = hex(text, pos);
                if (address != 0 && address != -1) {
                    int tab = indexOf(text, (byte) '\t', pos + 19, end);
                    if (tab >= 0) {
                        nameEnd = tab;
                    }
                    int length = nameEnd - (pos + 19);
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                        starts = Arrays.copyOf(starts, count * 2);
                    }
                    if (used + length > names.length) {
                        names = Arrays.copyOf(names, Math.max(names.length * 2, used + length));
                    }
                    System.arraycopy(text, pos + 19, names, used, length);
                    found[count] = address;
                    starts[count] = used;
                    used += length;
                    count++;
                }
            }
            pos = end + 1;
        }
        return sorted(found, starts, names, count, used);
    }

    /**
     * Sorts by address without boxing: each symbol as one long, its address less the lowest in the high bits and its
     * index in the low ones (kernel text and modules lie within a few GiB of each other).
     */
    private static KernelSymbols sorted(long[] found, int[] starts, byte[] names, int count, int used) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            min = Math.min(min, found[i]);
            max = Math.max(max, found[i]);
        }
        if (count > 0 && (max - min < 0 || (max - min) >>> (63 - INDEX_BITS) != 0)) {
            // Addresses too far apart to pack (never seen on x86-64): kernel frames are then named by address.
            return new KernelSymbols(new long[0], new int[] {0}, new byte[0]);
        }
        long[] packed = new long[count];
        for (int i = 0; i < count; i++) {
            packed[i] = ((found[i] - min) << INDEX_BITS) | i;
        }
        Arrays.sort(packed);
        long[] addresses = new long[count];
        int[] nameStarts = new int[count + 1];
        byte[] nameBytes = new byte[used];
        int at = 0;
        for (int i = 0; i < count; i++) {
            int index = (int) (packed[i] & ((1 << INDEX_BITS) - 1));
            addresses[i] = (packed[i] >>> INDEX_BITS) + min;
            int length = (index + 1 < count ? starts[index + 1] : used) - starts[index];
            System.arraycopy(names, starts[index], nameBytes, at, length);
            nameStarts[i] = at;
            at += length;
        }
        nameStarts[count] = at;
        return new KernelSymbols(addresses, nameStarts, nameBytes);
    }

    private static int indexOf(byte[] text, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Sixteen hex digits at {@code pos}, or -1 when they are not. */
    private static long hex(byte[] text, int pos) {
        long value = 0;
        for (int i = pos; i < pos + 16; i++) {
            int c = text[i];
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (digit < 0) {
                return -1;
            }
            value = (value << 4) | digit;
        }
        return value;
    }

    /** The function holding a kernel address, or its hex form. */
    public String name(long address) {
        int lo = 0;
        int hi = addresses.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(addresses[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return "[kernel 0x" + Long.toHexString(address) + "]";
        }
        return new String(nameBytes, nameStarts[found], nameStarts[found + 1] - nameStarts[found],
                StandardCharsets.ISO_8859_1);
    }

    /** Number of symbols. */
    public int size() {
        return addresses.length;
    }
}
