package io.mixflame.testsupport;

/**
 * A thread's stack built in a {@link FakeProcessMemory} the way code builds it: calls push return addresses,
 * prologues push the caller's frame pointer or reserve a fixed frame. Built from the outermost frame inwards; the
 * registers of the innermost frame are then {@link #sp()} and {@link #fp()}.
 */
public final class SyntheticStack {
    private final FakeProcessMemory memory;
    private final long low;
    private long sp;
    private long fp;

    /** An empty stack occupying {@code [low, high)}, mapped as zeros; sp starts at {@code high}, fp at 0. */
    public SyntheticStack(FakeProcessMemory memory, long low, long high) {
        this.memory = memory.map(low, high - low);
        this.low = low;
        this.sp = high;
    }

    /** Pushes a word. */
    public SyntheticStack push(long value) {
        sp -= 8;
        if (sp < low) {
            throw new IllegalStateException("synthetic stack overflow");
        }
        memory.writeLong(sp, value);
        return this;
    }

    /** A call instruction: pushes the return address. */
    public SyntheticStack call(long returnAddress) {
        return push(returnAddress);
    }

    /** The usual prologue: {@code push %rbp; mov %rsp,%rbp; sub $localBytes,%rsp}. */
    public SyntheticStack enterWithFramePointer(int localBytes) {
        push(fp);
        fp = sp;
        sp -= localBytes;
        return this;
    }

    /** A prologue that leaves rbp alone and reserves {@code bytes} below the return address. */
    public SyntheticStack reserve(int bytes) {
        sp -= bytes;
        return this;
    }

    /** The stack pointer of the innermost frame. */
    public long sp() {
        return sp;
    }

    /** The frame pointer of the innermost frame (the address of its saved caller's rbp). */
    public long fp() {
        return fp;
    }
}
