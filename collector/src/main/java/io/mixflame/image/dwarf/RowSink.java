package io.mixflame.image.dwarf;

/** Receives what interpreting call frame information produces. */
interface RowSink {
    /** A range starting at {@code start} governed by {@code rule}; {@code null} marks the end of an FDE. */
    void row(long start, CfiRule rule);

    /** An FDE begins at {@code start}. */
    void function(long start);
}
