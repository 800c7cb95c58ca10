package io.mixflame.image.pe;

import io.mixflame.image.UnwindData;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;

/**
 * The exception directory ({@code .pdata}) of an x64 image: its RUNTIME_FUNCTION entries sorted by start, found by
 * binary search, and their unwind info decoded on demand. An image without the directory has no entries (all its
 * functions are leaves as far as unwinding is concerned).
 */
public final class PeUnwindTable implements UnwindData {
    private static final int ENTRY_SIZE = 12;

    private final RuntimeFunction[] entries;
    private final UnwindInfoReader reader;

    private PeUnwindTable(RuntimeFunction[] entries, UnwindInfoReader reader) {
        this.entries = entries;
        this.reader = reader;
    }

    /**
     * Reads the exception directory.
     *
     * @throws PeFormatException if it lies outside the image or holds an entry that ends before it begins
     */
    public static PeUnwindTable read(PeFile file) {
        PeDataDirectory dir = file.directory(PeFile.DIRECTORY_EXCEPTION);
        RuntimeFunction[] entries = new RuntimeFunction[0];
        if (dir.isPresent()) {
            file.rvaToOffset(dir.rva(), dir.size());
            int count = (int) (dir.size() / ENTRY_SIZE);
            entries = new RuntimeFunction[count];
            for (int i = 0; i < count; i++) {
                long at = dir.rva() + (long) ENTRY_SIZE * i;
                RuntimeFunction f = new RuntimeFunction(file.u32(at), file.u32(at + 4), file.u32(at + 8));
                if (f.end() < f.begin()) {
                    throw new PeFormatException("RUNTIME_FUNCTION " + i + " ends before it begins");
                }
                entries[i] = f;
            }
            // The linker sorts them; sorting again costs little and makes the search safe on odd images.
            Arrays.sort(entries, Comparator.comparingLong(RuntimeFunction::begin));
        }
        return new PeUnwindTable(entries, new UnwindInfoReader(file));
    }

    /** The entry whose range holds an RVA; empty for leaf functions and addresses outside any function. */
    public Optional<RuntimeFunction> find(long rva) {
        int i = indexOf(rva);
        return i < 0 ? Optional.empty() : Optional.of(entries[i]);
    }

    /** The begin RVA of the function whose range holds {@code rva}; -1 for leaf functions and outside any. */
    @Override
    public long functionStart(long rva) {
        int i = indexOf(rva);
        return i < 0 ? -1 : entries[i].begin();
    }

    /** The index of the entry whose range holds an RVA, or -1. */
    private int indexOf(long rva) {
        int low = 0;
        int high = entries.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            RuntimeFunction f = entries[mid];
            if (rva < f.begin()) {
                high = mid - 1;
            } else if (rva >= f.end()) {
                low = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** The begin RVA of the first function at or above {@code rva}, or -1 when none lies there. */
    public long nextBegin(long rva) {
        int low = 0;
        int high = entries.length - 1;
        long best = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (entries[mid].begin() >= rva) {
                best = entries[mid].begin();
                high = mid - 1;
            } else {
                low = mid + 1;
            }
        }
        return best;
    }

    /**
     * The decoded unwind info of an entry, with its chain.
     *
     * @throws PeFormatException if it is malformed
     */
    public UnwindInfo unwindInfo(RuntimeFunction entry) {
        return reader.read(entry.unwindInfo());
    }

    /** Number of RUNTIME_FUNCTION entries. */
    public int size() {
        return entries.length;
    }
}
