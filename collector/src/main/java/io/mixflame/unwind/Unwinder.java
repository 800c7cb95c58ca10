package io.mixflame.unwind;

/**
 * One way of finding a frame's caller. A walker keeps a chain of them; at each frame the first that can unwind
 * from its code does the step, and the next frame may be another's (native code calling JIT code calling native
 * code), which is how the pieces of a mixed stack join in true call order.
 */
public interface Unwinder {

    /** Whether this unwinder knows the code at {@link UnwindContext#lookupPc()}. */
    boolean canUnwindFrom(UnwindContext context);

    /** Replaces the context's registers with the caller's. */
    UnwindStatus tryUnwind(UnwindContext context);
}
