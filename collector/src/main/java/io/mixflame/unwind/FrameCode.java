package io.mixflame.unwind;

import io.mixflame.image.LoadedModule;

/**
 * What is known of the code at one frame's look-up pc, found once and handed to every unwinder the walker asks about
 * that frame: the module it lies in (null for code in no module, such as a JIT's), and the native unwind rule of that
 * module's format for the pc (a DWARF row, a PE function's unwind info), filled by the unwinder of that format the
 * first time it is asked. Kept per pc while the process's modules stay the same ({@link UnwindContext#code()}), since
 * the same return addresses come back in sample after sample.
 */
public final class FrameCode {
    private final long pc;
    private final LoadedModule module;
    private boolean ruleKnown;
    private Object rule;

    FrameCode(long pc, LoadedModule module) {
        this.pc = pc;
        this.module = module;
    }

    /** The look-up pc the code was found for. */
    public long pc() {
        return pc;
    }

    /** The module holding the pc, or null. */
    public LoadedModule module() {
        return module;
    }

    /** Whether the module's unwinder has looked the pc's rule up yet. */
    public boolean ruleKnown() {
        return ruleKnown;
    }

    /** The rule the module's unwinder found for the pc (null for none); see {@link #ruleKnown()}. */
    public Object rule() {
        return rule;
    }

    /** Keeps the rule the module's unwinder found for the pc (null for none). */
    public void setRule(Object found) {
        rule = found;
        ruleKnown = true;
    }
}
