package io.mixflame.image;

/**
 * A module's native unwind data, in its format: DWARF call frame information for ELF, {@code .pdata}/{@code .xdata}
 * for PE. The native unwinder of a platform knows which format it reads and declines a frame whose module has
 * another (or {@link #NONE}).
 */
public interface UnwindData {

    /** No unwind data: a file that could not be read, or of a format no unwinder reads. */
    UnwindData NONE = new UnwindData() {
    };
}
