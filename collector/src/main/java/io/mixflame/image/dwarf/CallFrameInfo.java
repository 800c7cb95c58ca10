package io.mixflame.image.dwarf;

import io.mixflame.image.UnwindData;

/** A module's call frame information: the unwind rule at any of its addresses (link-time addresses). */
public interface CallFrameInfo extends UnwindData {

    /** The rule covering an address, or null. */
    CfiRule find(long address);

    /** The start of the function (the FDE) covering an address, or -1. */
    long functionStart(long address);

    /** Number of address ranges (or FDEs, for an index read on demand). */
    int ranges();

    /** Number of distinct rules interpreted so far. */
    int distinctRules();
}
