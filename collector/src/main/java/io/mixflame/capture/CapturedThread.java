package io.mixflame.capture;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import java.util.Arrays;

/**
 * One thread at one moment, as every capture takes it and every walk starts from it, whatever the platform: its
 * registers, a copy of the top of its stack, where its stack region lies when the capture knows it, and the kernel's
 * return addresses when the capture has them. Registers are numbered by DWARF's numbers of the host's architecture
 * ({@link HostRegisters}), as the unwinders number them. Instances are reused: a capture fills one in, a walk reads it.
 */
public final class CapturedThread {
    private static final int MAX_KERNEL_FRAMES = 128;

    private final long[] registers = new long[HostRegisters.COUNT];
    /** A bit per known register: a {@code long}, as an architecture may number up to 64 registers. */
    private long known;
    private long tid;
    private long time;
    private long pausedNanos;
    private int labelSet;
    private int weight = 1;
    /** The copy's bytes when they are on the heap (captures that read into an array); null when off-heap. */
    private byte[] stack;
    /** The copy as the walk reads it, little-endian, over {@link #stack} or over memory outside the heap. */
    private ByteBuffer stackView;
    private final boolean offHeap;
    private int stackLength;
    private long stackLow;
    private long stackHigh;
    private final long[] kernelChain = new long[MAX_KERNEL_FRAMES];
    private int kernelDepth;

    /** @param stackBytes how many bytes of stack a capture may copy, into an array on the heap */
    public CapturedThread(int stackBytes) {
        this(stackBytes, false);
    }

    private CapturedThread(int stackBytes, boolean offHeap) {
        this.offHeap = offHeap;
        allocateStack(stackBytes);
    }

    /**
     * A capture whose stack copy lies outside the Java heap, for pools that keep many (the perf engine's, up to 128
     * copies of 16 to 64 KiB): the application's collector neither copies nor counts them. Its copy is filled through
     * {@link #stackView}; {@link #stackBuffer} is not available.
     */
    public static CapturedThread offHeap(int stackBytes) {
        return new CapturedThread(stackBytes, true);
    }

    private void allocateStack(int stackBytes) {
        if (offHeap) {
            stack = null;
            stackView = ByteBuffer.allocateDirect(stackBytes).order(ByteOrder.LITTLE_ENDIAN);
        } else {
            stack = new byte[stackBytes];
            stackView = ByteBuffer.wrap(stack).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** Forgets everything but the buffers, for the next capture. */
    public void clear(long threadId, long timeNanos) {
        tid = threadId;
        time = timeNanos;
        pausedNanos = 0;
        labelSet = 0;
        weight = 1;
        Arrays.fill(registers, 0);
        known = 0;
        stackLength = 0;
        stackLow = 0;
        stackHigh = 0;
        kernelDepth = 0;
    }

    /** The thread's id (the OS's). */
    public long tid() {
        return tid;
    }

    /** When it was captured (the capture's clock, in nanoseconds). */
    public long time() {
        return time;
    }

    /** How long the capture kept the thread stopped, in nanoseconds; 0 when it did not stop it. */
    public long pausedNanos() {
        return pausedNanos;
    }

    /**
     * Stamps the capture again: a capture that stops the thread knows the moment the thread certainly stood where
     * it was captured only once it is stopped.
     */
    public void setTime(long timeNanos) {
        time = timeNanos;
    }

    /**
     * The set of labels the thread had when captured, looked up as it was taken rather than when walked
     * ({@code io.mixflame.capture.labels.SampleLabeler#setAt}); 0, no labels, unless set.
     */
    public int labelSet() {
        return labelSet;
    }

    /** Records the set of labels the thread had when captured. */
    public void setLabelSet(int set) {
        labelSet = set;
    }

    /** Intervals of CPU time this capture stands for: 1 unless the capture merged several (see {@code RawSample}). */
    public int weight() {
        return weight;
    }

    /** Records the intervals this capture stands for (at least 1). */
    public void setWeight(int intervals) {
        weight = Math.max(1, intervals);
    }

    /** Records how long the capture kept the thread stopped. */
    public void setPausedNanos(long nanos) {
        pausedNanos = nanos;
    }

    /** Sets a register and marks it known. */
    public void setRegister(int register, long value) {
        registers[register] = value;
        known |= 1L << register;
    }

    /** Whether a register's value was captured. */
    public boolean isKnown(int register) {
        return register >= 0 && register < HostRegisters.COUNT && (known & (1L << register)) != 0;
    }

    /** A register's value; meaningful only when {@link #isKnown(int)}. */
    public long register(int register) {
        return registers[register];
    }

    /** Whether the capture has a user context to walk from (pc and sp). */
    public boolean hasUserContext() {
        return isKnown(HostRegisters.PC) && isKnown(HostRegisters.SP);
    }

    /**
     * The array a capture copies the stack into, from sp up; {@link #setStackLength} says how much it copied.
     *
     * @throws IllegalStateException for a capture made {@link #offHeap}
     */
    public byte[] stackBuffer() {
        if (stack == null) {
            throw new IllegalStateException("this capture's stack copy is outside the heap: fill it through stackView()");
        }
        return stack;
    }

    /**
     * The stack copy as a little-endian buffer, on the heap or not: read and written by absolute index only, so that
     * one buffer serves every sample without a view made per sample.
     */
    public ByteBuffer stackView() {
        return stackView;
    }

    /**
     * Makes the stack buffer hold at least {@code stackBytes}, keeping nothing of it: a pooled capture grows the first
     * time it carries a larger copy (a thread whose copy grew), rather than every buffer being made for the largest.
     */
    public void reserveStack(int stackBytes) {
        if (stackView.capacity() < stackBytes) {
            allocateStack(stackBytes);
        }
    }

    /** How many bytes of {@link #stackBuffer()}, from sp, were copied. */
    public void setStackLength(int length) {
        stackLength = Math.max(0, Math.min(length, stackView.capacity()));
    }

    /** Valid bytes of the stack copy. */
    public int stackLength() {
        return stackLength;
    }

    /** The thread's stack region, when the capture knows it: {@code [low, high)}. */
    public void setStackRegion(long low, long high) {
        stackLow = low;
        stackHigh = high;
    }

    /** Whether the stack region is known. */
    public boolean hasStackRegion() {
        return stackHigh > stackLow;
    }

    public long stackLow() {
        return stackLow;
    }

    public long stackHigh() {
        return stackHigh;
    }

    /** Adds a kernel return address, innermost first; beyond the buffer's room they are dropped. */
    public void addKernelFrame(long address) {
        if (kernelDepth < kernelChain.length) {
            kernelChain[kernelDepth++] = address;
        }
    }

    /** Kernel return addresses captured, innermost first. */
    public int kernelDepth() {
        return kernelDepth;
    }

    /** The kernel return address at a depth (0 innermost). */
    public long kernelFrame(int depth) {
        return kernelChain[depth];
    }

    /** Makes this a copy of another capture; the stack buffer grows to hold the other's copy. */
    public void copyFrom(CapturedThread other) {
        tid = other.tid;
        time = other.time;
        weight = other.weight;
        System.arraycopy(other.registers, 0, registers, 0, HostRegisters.COUNT);
        known = other.known;
        reserveStack(other.stackLength);
        System.arraycopy(other.stack, 0, stack, 0, Math.min(other.stackLength, stack.length));
        stackLength = Math.min(other.stackLength, stack.length);
        stackLow = other.stackLow;
        stackHigh = other.stackHigh;
        System.arraycopy(other.kernelChain, 0, kernelChain, 0, other.kernelDepth);
        kernelDepth = other.kernelDepth;
    }
}
