package io.mixflame.image.dwarf;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.image.elf.ElfSection;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Call frame information read on demand through the sorted index the linker puts in {@code .eh_frame_hdr}: an
 * address finds its FDE by binary search, and only that FDE's program is interpreted (then cached). A large
 * library (libjvm has some 30 000 FDEs) costs nothing until its code is on a stack, and memory grows with the code
 * actually seen rather than with the library.
 */
final class IndexedCfiTable implements CallFrameInfo {
    private static final int DATAREL_SDATA4 = 0x3b;
    private static final int CACHE_LIMIT = 8192;

    private final ElfSection ehFrame;
    /**
     * The header's binary-search table as the file has it, in the mapped file (outside the Java heap, and shared in
     * the page cache by every process that maps the module): per FDE, its function's start and its own address, each
     * an int32 from {@link #base}.
     */
    private final ByteBuffer table;
    private final long base;
    private final int count;
    private final CfiParser parser;
    private final Map<CfiRule, CfiRule> interned = new HashMap<>();
    /** The FDEs interpreted so far, by index + 1: a primitive key, since the walk asks for every native frame. */
    private final LongKeyedCache<FdeRows> cache = new LongKeyedCache<>(CACHE_LIMIT);

    /** One FDE interpreted: its end and its rows. */
    private static final class FdeRows implements RowSink {
        long end = Long.MIN_VALUE;
        long[] starts = new long[8];
        CfiRule[] rules = new CfiRule[8];
        int count;

        @Override
        public void row(long start, CfiRule rule) {
            if (rule == null) {
                end = start;
                return;
            }
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
                rules = Arrays.copyOf(rules, count * 2);
            }
            starts[count] = start;
            rules[count] = rule;
            count++;
        }

        @Override
        public void function(long start) {
            // the index already knows where the FDE starts
        }

        CfiRule find(long address) {
            if (address >= end) {
                return null;
            }
            int i = Arrays.binarySearch(starts, 0, count, address);
            if (i < 0) {
                i = -i - 2;
            }
            return i < 0 ? null : rules[i];
        }
    }

    private IndexedCfiTable(ElfFile elf, ElfSection ehFrame, ByteBuffer table, long base, int count) {
        this.ehFrame = ehFrame;
        this.table = table;
        this.base = base;
        this.count = count;
        this.parser = CfiParser.forFdes(elf);
    }

    private long initialLocation(int i) {
        return base + table.getInt(8 * i);
    }

    /** Where FDE {@code i} lies in the file. */
    private long fdeOffset(int i) {
        return ehFrame.offset() + (base + table.getInt(8 * i + 4) - ehFrame.address());
    }

    /** The index of a module, when it has {@code .eh_frame_hdr} with a binary-search table of the usual encoding. */
    static Optional<CallFrameInfo> open(ElfFile elf) {
        Optional<ElfSection> hdr = elf.sectionWithData(".eh_frame_hdr");
        Optional<ElfSection> frames = elf.sectionWithData(".eh_frame");
        if (hdr.isEmpty() || frames.isEmpty()) {
            return Optional.empty();
        }
        ByteCursor c = elf.cursor(hdr.get());
        int version = c.u8();
        int framePtrEncoding = c.u8();
        int countEncoding = c.u8();
        int tableEncoding = c.u8();
        if (version != 1 || tableEncoding != DATAREL_SDATA4 || countEncoding != 0x03) {
            return Optional.empty();
        }
        PointerEncoding.skip(c, framePtrEncoding);
        long count = c.u32();
        if (count * 8 > c.remaining()) {
            throw new ElfFormatException(".eh_frame_hdr table runs past its section");
        }
        long base = hdr.get().address();
        ElfSection eh = frames.get();
        ByteBuffer table = elf.sectionBytes(hdr.get()).slice(c.position() - (int) hdr.get().offset(), (int) count * 8)
                .order(ByteOrder.LITTLE_ENDIAN);
        IndexedCfiTable index = new IndexedCfiTable(elf, eh, table, base, (int) count);
        // Checked once here so that the walk can trust it: every FDE inside .eh_frame, the starts in order.
        for (int i = 0; i < count; i++) {
            long offset = index.fdeOffset(i);
            if (offset < eh.offset() || offset >= eh.offset() + eh.size()) {
                throw new ElfFormatException(".eh_frame_hdr points outside .eh_frame");
            }
            if (i > 0 && index.initialLocation(i) < index.initialLocation(i - 1)) {
                throw new ElfFormatException(".eh_frame_hdr table is not sorted");
            }
        }
        return Optional.of(index);
    }

    @Override
    public CfiRule find(long address) {
        int i = indexOf(address);
        if (i < 0) {
            return null;
        }
        FdeRows rows = rows(i);
        return rows == null ? null : rows.find(address);
    }

    @Override
    public long functionStart(long address) {
        int i = indexOf(address);
        if (i < 0) {
            return -1;
        }
        // The padding after a function is no part of it: the FDE's range, not the next FDE's start, ends it.
        FdeRows rows = rows(i);
        return address < rows.end ? initialLocation(i) : -1;
    }

    /** The last FDE starting at or below {@code address}, or -1. */
    private int indexOf(long address) {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (initialLocation(mid) <= address) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    private synchronized FdeRows rows(int index) {
        FdeRows rows = cache.get(index + 1L);
        if (rows == null) {
            rows = new FdeRows();
            try {
                parser.parseFde(ehFrame, fdeOffset(index), rows);
            } catch (RuntimeException e) {
                // A damaged FDE costs the unwind of its function, never the walk.
                rows = new FdeRows();
            }
            for (int k = 0; k < rows.count; k++) {
                CfiRule known = interned.putIfAbsent(rows.rules[k], rows.rules[k]);
                if (known != null) {
                    rows.rules[k] = known;
                }
            }
            cache.put(index + 1L, rows);
        }
        return rows;
    }

    @Override
    public int ranges() {
        return count;
    }

    @Override
    public synchronized int distinctRules() {
        return interned.size();
    }
}
