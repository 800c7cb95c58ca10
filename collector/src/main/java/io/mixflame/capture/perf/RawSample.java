package io.mixflame.capture.perf;

import io.mixflame.capture.CapturedThread;

/**
 * One sample as the kernel recorded it, in reused buffers: which thread, when, its user registers, the copy of
 * the top of its user stack, and the kernel callchain when kernel sampling is on.
 */
public final class RawSample {
    /** Process id. */
    public int pid;
    /** Thread id. */
    public int tid;
    /** Kernel timestamp (ns). */
    public long time;
    /**
     * Intervals of CPU time the sample stands for: 1 for perf's samples; for the timer engine's, the whole intervals
     * of the thread's CPU time its handler accounted since the thread's last sample.
     */
    public int weight = 1;
    /** The sample's ip (a kernel address when the thread was in the kernel). */
    public long ip;
    /** Whether the user registers are present (the thread has a user context). */
    public boolean hasRegisters;
    /** The user registers, in {@link UserRegisters}' slots. */
    public final long[] registers = new long[UserRegisters.count()];
    /**
     * The stack copy: {@link #stackLength} valid bytes starting at the user sp. As large as the largest copy any
     * thread's event asks for ({@link #reserveStack}).
     */
    public byte[] stack;
    /** Valid bytes in {@link #stack}. */
    public int stackLength;
    /** The copy the sample's event asked for ({@code sample_stack_user}), whatever the kernel could copy. */
    public int stackRequested;
    /** Kernel return addresses, innermost first. */
    public long[] kernelChain = new long[64];
    /** Valid entries in {@link #kernelChain}. */
    public int kernelDepth;

    public RawSample(int stackBytes) {
        this.stack = new byte[stackBytes];
    }

    /**
     * Makes room for copies of {@code stackBytes}, when a thread's event is reopened with a larger copy: grown then,
     * once, rather than sized for the largest copy up front.
     */
    public void reserveStack(int stackBytes) {
        if (stack.length < stackBytes) {
            stack = new byte[stackBytes];
        }
    }

    /** The user program counter. */
    public long pc() {
        return registers[UserRegisters.PC_SLOT];
    }

    /** The user stack pointer. */
    public long sp() {
        return registers[UserRegisters.SP_SLOT];
    }

    /** Copies the sample into the platform-neutral form walks start from. */
    public void copyTo(CapturedThread out) {
        out.clear(tid, time);
        out.setWeight(weight);
        if (hasRegisters) {
            for (int slot = 0; slot < registers.length; slot++) {
                out.setRegister(UserRegisters.registerAt(slot), registers[slot]);
            }
            out.reserveStack(stackLength);
            int length = Math.min(stackLength, out.stackView().capacity());
            out.stackView().put(0, stack, 0, length);
            out.setStackLength(length);
        }
        for (int i = 0; i < kernelDepth; i++) {
            out.addKernelFrame(kernelChain[i]);
        }
    }
}
