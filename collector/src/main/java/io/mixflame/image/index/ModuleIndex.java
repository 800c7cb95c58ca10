package io.mixflame.image.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A module index file, mapped read-only and verified ({@link ModuleIndexReader}): its sections are views of the
 * mapping, shared through the page cache with every other process that maps the same file. A section's contents are
 * within the file and covered by its checksum; what they mean is for the section's user to check.
 */
public final class ModuleIndex {
    private final String fileName;
    private final ByteBuffer file;
    private final int[] kinds;
    private final int[] entries;
    private final long[] offsets;
    private final long[] lengths;

    ModuleIndex(String fileName, ByteBuffer file, int[] kinds, int[] entries, long[] offsets, long[] lengths) {
        this.fileName = fileName;
        this.file = file;
        this.kinds = kinds;
        this.entries = entries;
        this.offsets = offsets;
        this.lengths = lengths;
    }

    /** The file's name in its directory, for log lines. */
    public String fileName() {
        return fileName;
    }

    /**
     * The bytes of the first section of this kind, little-endian, position 0 at its start.
     *
     * @throws IndexRefusedException when the file has no such section
     */
    public ByteBuffer section(int kind) throws IndexRefusedException {
        int i = find(kind);
        return file.slice((int) offsets[i], (int) lengths[i]).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The number of entries the file records for the first section of this kind.
     *
     * @throws IndexRefusedException when the file has no such section
     */
    public int entries(int kind) throws IndexRefusedException {
        return entries[find(kind)];
    }

    private int find(int kind) throws IndexRefusedException {
        for (int i = 0; i < kinds.length; i++) {
            if (kinds[i] == kind) {
                return i;
            }
        }
        throw new IndexRefusedException("no section of kind " + kind);
    }
}
