package io.mixflame.unwind;

/** The outcome of one unwind step. */
public enum UnwindStatus {
    /** The registers now describe the caller's frame. */
    UNWOUND,
    /** This frame is the stack's first: nothing called it (thread entry, {@code _start}). */
    COMPLETED,
    /** The caller's frame cannot be found. */
    FAILED
}
