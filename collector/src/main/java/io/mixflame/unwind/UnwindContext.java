package io.mixflame.unwind;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.HostRegisters;
import io.mixflame.image.ModuleMap;

/**
 * What an unwinder works on during one step: the frame's registers (replaced by the caller's), the stack's memory,
 * the process's modules, and facts about the frame that the walker and the unwinders pass along.
 */
public final class UnwindContext {
    /** Stack regions kept, so that loading a capture or crossing to a known stack makes no object. */
    private static final int REGIONS_KEPT = 4096;
    /** Frames' code kept by look-up pc. */
    private static final int CODE_KEPT = 16_384;

    private final Registers registers = new Registers();
    private final LongKeyedCache<StackBounds> regions = new LongKeyedCache<>(REGIONS_KEPT);
    /** The code found for each look-up pc while the modules' generation stays {@link #codeGeneration}. */
    private final LongKeyedCache<FrameCode> codeByPc = new LongKeyedCache<>(CODE_KEPT);
    private int codeGeneration;
    /** The current frame's code, once asked for in this step. */
    private FrameCode code;
    /** What the unwinder that said it can unwind the current frame found doing so, for its step. */
    private Object claim;
    private final StackMemory memory;
    private final ModuleMap modules;
    private StackBounds bounds;
    private boolean callSite;
    private boolean signalFrame;
    private boolean guessedFramePointer;
    private byte describedKind;
    private long describedA;
    private long describedB;

    public UnwindContext(StackMemory memory, ModuleMap modules) {
        this.memory = memory;
        this.modules = modules;
    }

    /** The registers of the current frame. */
    public Registers registers() {
        return registers;
    }

    public StackMemory memory() {
        return memory;
    }

    public ModuleMap modules() {
        return modules;
    }

    /**
     * Sets the walk's start from a capture: its registers, its stack copy, and its stack region (else the walker
     * finds the region around sp itself).
     */
    public void load(CapturedThread thread) {
        Registers r = registers;
        r.clear();
        for (int i = 0; i < HostRegisters.COUNT; i++) {
            if (thread.isKnown(i)) {
                r.set(i, thread.register(i));
            }
        }
        memory.setCopy(r.sp(), thread.stackView(), thread.stackLength());
        bounds = null;
        setBounds(thread.hasStackRegion() ? region(thread.stackLow(), thread.stackHigh()) : null);
    }

    /**
     * The bounds of the stack region {@code [low, high)}: one object per region, kept, whether the region comes from a
     * capture or from the module map around an sp.
     */
    StackBounds region(long low, long high) {
        StackBounds b = low == 0 ? null : regions.get(low);
        if (b == null || b.high() != high) {
            b = new StackBounds(low, high);
            if (low != 0) {
                regions.put(low, b);
            }
        }
        return b;
    }

    /** The region the current frame's stack pointer must stay in. */
    public StackBounds bounds() {
        return bounds;
    }

    /**
     * Sets the region the current frame's stack pointer must stay in; the first region set, the one around the
     * sample's sp, also bounds the reads {@link StackMemory#readAboveCopy} counts.
     */
    public void setBounds(StackBounds bounds) {
        if (this.bounds == null && bounds != null && bounds.contains(registers.sp())) {
            memory.setStackHigh(bounds.high());
        }
        this.bounds = bounds;
    }

    /**
     * The code at the current frame's look-up pc: its module, and the native rule its unwinder found for it. Found
     * once per frame however many unwinders ask, and kept per pc while the process's modules stay the same.
     */
    public FrameCode code() {
        long pc = lookupPc();
        int generation = modules.generation();
        FrameCode c = code;
        if (c != null && c.pc() == pc && generation == codeGeneration) {
            return c;
        }
        if (generation != codeGeneration) {
            codeByPc.clear();
            codeGeneration = generation;
        }
        c = pc == 0 ? null : codeByPc.get(pc);
        if (c == null) {
            // An address in no module may be in one loaded later, which changes the generation.
            c = new FrameCode(pc, modules.moduleAt(pc));
            if (pc != 0) {
                codeByPc.put(pc, c);
            }
        }
        code = c;
        return c;
    }

    /**
     * What the unwinder that said it can unwind the current frame found while deciding (a code blob), for the step it
     * is then asked to take; null when it left nothing. Cleared by the walker before each frame.
     */
    public Object claim() {
        return claim;
    }

    public void setClaim(Object found) {
        claim = found;
    }

    /** A new frame: what was found for the last one no longer holds. */
    void nextFrame() {
        code = null;
        claim = null;
    }

    /**
     * Whether the pc is a return address, so that the code being run is the call before it ({@code pc - 1} is looked
     * up); false for the innermost frame and for a frame a signal interrupted.
     */
    public boolean callSite() {
        return callSite;
    }

    public void setCallSite(boolean callSite) {
        this.callSite = callSite;
    }

    /** The address to look the current frame's code up by. */
    public long lookupPc() {
        return callSite ? registers.pc() - 1 : registers.pc();
    }

    /** Set by an unwinder when the frame it just left was a signal trampoline. */
    public boolean signalFrame() {
        return signalFrame;
    }

    public void setSignalFrame(boolean signalFrame) {
        this.signalFrame = signalFrame;
    }

    /**
     * Called by an unwinder during a step to say what the frame it unwinds from is (a Java frame, a JVM stub), with
     * the details {@link WalkedStack} keeps for that kind.
     */
    public void describeFrame(byte kind, long a, long b) {
        describedKind = kind;
        describedA = a;
        describedB = b;
    }

    /** Takes the description set during the last step, or {@link WalkedStack#CODE} without one; clears it. */
    byte takeDescribedKind() {
        byte k = describedKind;
        describedKind = WalkedStack.CODE;
        return k;
    }

    long describedA() {
        return describedA;
    }

    long describedB() {
        return describedB;
    }

    /** Set when the frame pointer the last step needed was not known and had to be found on the stack. */
    public boolean guessedFramePointer() {
        return guessedFramePointer;
    }

    public void setGuessedFramePointer(boolean guessed) {
        this.guessedFramePointer = guessed;
    }
}
