package io.mixflame.image.pe;

/**
 * One entry of the optional header's data directories: where a table (exports, exceptions) lies.
 *
 * @param rva  the table's RVA, 0 when absent
 * @param size the table's size in bytes
 */
public record PeDataDirectory(long rva, long size) {
    /** The directory of an image that has no such table. */
    public static final PeDataDirectory ABSENT = new PeDataDirectory(0, 0);

    public boolean isPresent() {
        return rva != 0 && size != 0;
    }

    /** Whether an RVA falls inside the table (how forwarded exports are told apart). */
    public boolean contains(long rva) {
        return rva >= this.rva && rva - this.rva < size;
    }
}
