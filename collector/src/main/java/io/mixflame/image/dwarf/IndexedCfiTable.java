package io.mixflame.image.dwarf;

import io.mixflame.image.elf.ByteCursor;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.image.elf.ElfSection;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    private final long[] initialLocations;
    private final long[] fdeOffsets;
    private final CfiParser parser;
    private final Map<CfiRule, CfiRule> interned = new HashMap<>();
    private final Map<Integer, FdeRows> cache = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, FdeRows> eldest) {
            return size() > CACHE_LIMIT;
        }
    };

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

    private IndexedCfiTable(ElfFile elf, ElfSection ehFrame, long[] initialLocations, long[] fdeOffsets) {
        this.ehFrame = ehFrame;
        this.initialLocations = initialLocations;
        this.fdeOffsets = fdeOffsets;
        this.parser = CfiParser.forFdes(elf);
    }

    /** The index of a module, when it has {@code .eh_frame_hdr} with a binary-search table of the usual encoding. */
    static Optional<CallFrameInfo> open(ElfFile elf) {
        Optional<ElfSection> hdr = elf.section(".eh_frame_hdr").filter(ElfSection::hasData);
        Optional<ElfSection> frames = elf.section(".eh_frame").filter(ElfSection::hasData);
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
        long[] locations = new long[(int) count];
        long[] offsets = new long[(int) count];
        for (int i = 0; i < count; i++) {
            locations[i] = base + c.s32();
            long fdeAddress = base + c.s32();
            long offset = eh.offset() + (fdeAddress - eh.address());
            if (offset < eh.offset() || offset >= eh.offset() + eh.size()) {
                throw new ElfFormatException(".eh_frame_hdr points outside .eh_frame");
            }
            offsets[i] = offset;
        }
        for (int i = 1; i < count; i++) {
            if (locations[i] < locations[i - 1]) {
                throw new ElfFormatException(".eh_frame_hdr table is not sorted");
            }
        }
        return Optional.of(new IndexedCfiTable(elf, eh, locations, offsets));
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
        return address < rows.end ? initialLocations[i] : -1;
    }

    private int indexOf(long address) {
        int i = Arrays.binarySearch(initialLocations, address);
        if (i < 0) {
            i = -i - 2;
        }
        return i;
    }

    private synchronized FdeRows rows(int index) {
        FdeRows rows = cache.get(index);
        if (rows == null) {
            rows = new FdeRows();
            try {
                parser.parseFde(ehFrame, fdeOffsets[index], rows);
            } catch (RuntimeException e) {
                // A damaged FDE costs the unwind of its function, never the walk.
                rows = new FdeRows();
            }
            for (int k = 0; k < rows.count; k++) {
                rows.rules[k] = interned.computeIfAbsent(rows.rules[k], r -> r);
            }
            cache.put(index, rows);
        }
        return rows;
    }

    @Override
    public int ranges() {
        return initialLocations.length;
    }

    @Override
    public synchronized int distinctRules() {
        return interned.size();
    }
}
