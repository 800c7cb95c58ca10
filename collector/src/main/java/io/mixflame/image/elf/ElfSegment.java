package io.mixflame.image.elf;

/**
 * A program header.
 *
 * @param type     {@code p_type}; {@link #PT_LOAD} for loaded segments
 * @param flags    {@code p_flags}; bit 0 is executable
 * @param offset   file offset
 * @param vaddr    virtual address
 * @param fileSize bytes in the file
 * @param memSize  bytes in memory
 */
public record ElfSegment(int type, int flags, long offset, long vaddr, long fileSize, long memSize) {
    /** A loadable segment. */
    public static final int PT_LOAD = 1;
    /** Notes such as the build id. */
    public static final int PT_NOTE = 4;
    /** The location of {@code .eh_frame_hdr}. */
    public static final int PT_GNU_EH_FRAME = 0x6474e550;

    /** Whether the segment is executable. */
    public boolean executable() {
        return (flags & 1) != 0;
    }
}
