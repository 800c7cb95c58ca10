package io.mixflame.capture.perf;

/**
 * One sample as the kernel recorded it, in reused buffers: which thread, when, its user registers, the copy of
 * the top of its user stack, and the kernel callchain when kernel sampling is on.
 */
public final class RawSample {
    /** Thread id. */
    public int tid;
    /** Kernel timestamp (ns). */
    public long time;
    /** The sample's ip (a kernel address when the thread was in the kernel). */
    public long ip;
    /** Whether the user registers are present (the thread has a user context). */
    public boolean hasRegisters;
    /** The user registers, indexed by {@link UserRegisters#slot}. */
    public final long[] registers = new long[UserRegisters.count()];
    /** The stack copy: {@link #stackLength} valid bytes starting at the user sp. */
    public byte[] stack;
    /** Valid bytes in {@link #stack}. */
    public int stackLength;
    /** Kernel return addresses, innermost first. */
    public long[] kernelChain = new long[64];
    /** Valid entries in {@link #kernelChain}. */
    public int kernelDepth;

    public RawSample(int stackBytes) {
        this.stack = new byte[stackBytes];
    }

    /** A user register by its {@link UserRegisters} number. */
    public long register(int number) {
        return registers[UserRegisters.slot(number)];
    }
}
