package io.mixflame.profile;

/**
 * What kind of code a frame ran, or what else a frame stands for (a thread, a marker, a class, a label). Engines set
 * it from what they know; readers of the collapsed format recover it from the suffix async-profiler defined for each
 * Java kind, and from a frame's name and place for threads and labels.
 */
public enum FrameType {
    /** A Java method run by the bytecode interpreter. */
    INTERPRETED,
    /** A Java method in code compiled by C2 (or by a JIT the engine cannot tell apart). */
    JIT_COMPILED,
    /** A Java method in code compiled by C1. */
    C1_COMPILED,
    /** A Java method inlined into the compiled code of its caller. */
    INLINED,
    /** C or C++ code in a shared library or the executable, the JVM included. */
    NATIVE,
    /** Code of the operating system kernel. */
    KERNEL,
    /** A JVM-generated stub: call stub, adapter, runtime stub, interpreter entry. */
    STUB,
    /** The root frame naming a thread, added when profiles are split per thread. */
    THREAD,
    /** Not code but a note about the stack: {@code [unknown]}, {@code [truncated]}, {@code [overflow]}. */
    MARKER,
    /**
     * Not code but the class an event names, as the leaf of its stack: the allocated object's class in allocation
     * profiles, the lock's class in lock profiles, spelled as async-profiler spells them ({@code java.lang.Integer[]},
     * {@code int[]}, {@code java.util.concurrent.locks.ReentrantLock$NonfairSync}).
     */
    CLASS,
    /**
     * Not code but a label in force on the thread when the sample was taken, {@code [key=value]}
     * ({@link Frame#label}). Label frames come right after the thread's root frame {@code [name tid=N]} when there is
     * one, else first: one per label, in the order of their keys.
     */
    LABEL;

    /** True for the kinds that name a Java method. */
    public boolean isJava() {
        return this == INTERPRETED || this == JIT_COMPILED || this == C1_COMPILED || this == INLINED;
    }
}
