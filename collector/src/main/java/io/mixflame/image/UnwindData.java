package io.mixflame.image;

/**
 * A module's native unwind data, in its format: DWARF call frame information for ELF, {@code .pdata}/{@code .xdata}
 * for PE. The native unwinder of a platform knows which format it reads and declines a frame whose module has
 * another (or {@link #NONE}).
 */
public interface UnwindData {

    /**
     * Where the function that holds a link-time address starts, as the unwind data describes functions (an FDE's
     * range, a RUNTIME_FUNCTION); -1 where no function of it covers the address. Code without a symbol is named by
     * this, once per function rather than once per address.
     */
    default long functionStart(long address) {
        return -1;
    }

    /** No unwind data: a file that could not be read, or of a format no unwinder reads. */
    UnwindData NONE = new UnwindData() {
    };
}
