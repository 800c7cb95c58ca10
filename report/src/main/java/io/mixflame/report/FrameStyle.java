package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;

/**
 * How frames are spelled in text outputs, with async-profiler's options and defaults: Java frames without type
 * suffixes, C++ functions without their parameter lists, native frames without their library.
 *
 * <p>Kernel frames keep {@code _[k]} whatever the style: async-profiler makes it part of a kernel symbol's name, and
 * flamegraph tools colour kernel code by it.
 *
 * @param annotate   {@code ann}: Java frames carry their kind, {@code _[j]} JIT compiled, {@code _[i]} inlined,
 *                   {@code _[0]} interpreted, {@code _[1]} C1 compiled
 * @param signatures {@code sig}: C++ functions keep their parameter lists
 * @param libraries  {@code lib}: native frames are prefixed with their module's file name and a backquote,
 *                   {@code libc.so.6`qsort}, when the module is known
 * @param lines      {@code lines}: Java frames that carry their sampled line end in {@code :line}, as async-profiler's
 *                   converter writes them with {@code --lines}
 */
public record FrameStyle(boolean annotate, boolean signatures, boolean libraries, boolean lines) {

    /** async-profiler's default: plain names. */
    public static final FrameStyle DEFAULT = new FrameStyle(false, false, false, false);

    /** A style without line numbers. */
    public FrameStyle(boolean annotate, boolean signatures, boolean libraries) {
        this(annotate, signatures, libraries, false);
    }

    private static final String KERNEL_SUFFIX = "_[k]";

    /** The frame's name in this style, without its type suffix and before escaping. */
    public String name(Frame frame) {
        if (frame.type() != FrameType.NATIVE) {
            return lines && frame.line() > 0 && frame.type().isJava() ? frame.name() + ':' + frame.line() : frame.name();
        }
        String name = signatures ? frame.name() : CxxParameters.strip(frame.name());
        return libraries && frame.module() != null ? frame.module() + '`' + name : name;
    }

    /** The suffix written after a frame of this kind, or "" for none. */
    public String suffix(FrameType type) {
        if (type == FrameType.KERNEL) {
            return KERNEL_SUFFIX;
        }
        return annotate ? CollapsedFrames.suffix(type) : "";
    }
}
