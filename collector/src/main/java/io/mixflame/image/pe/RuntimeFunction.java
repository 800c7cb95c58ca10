package io.mixflame.image.pe;

/**
 * One RUNTIME_FUNCTION of an x64 image's exception directory: a function (or a fragment of one) and its unwind
 * data.
 *
 * @param begin          RVA of the first byte
 * @param end            RVA just past the last byte
 * @param unwindInfo     RVA of its UNWIND_INFO
 */
public record RuntimeFunction(long begin, long end, long unwindInfo) {
    /** Whether an RVA falls in {@code [begin, end)}. */
    public boolean contains(long rva) {
        return rva >= begin && rva < end;
    }
}
