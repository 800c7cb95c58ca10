package io.mixflame.unwind;

/**
 * The addresses a stack pointer may take while walking one stack region: {@code [low, high)}.
 *
 * @param low  lowest valid address
 * @param high first address above the region
 */
public record StackBounds(long low, long high) {
    /** Whether an sp lies inside. */
    public boolean contains(long sp) {
        return Long.compareUnsigned(sp, low) >= 0 && Long.compareUnsigned(sp, high) < 0;
    }
}
