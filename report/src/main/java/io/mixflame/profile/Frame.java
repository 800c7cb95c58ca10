package io.mixflame.profile;

import java.util.Objects;

/**
 * One frame of a stack: a name, the kind of code it ran and, for native code, where it lies.
 *
 * <p>Java methods are named {@code pkg/Class.method} (the form async-profiler and flamegraph tools use);
 * native code by its symbol; markers and threads in square brackets.
 *
 * <p>A frame also says where its code comes from, so that outputs need not parse names: a native frame its module's
 * file name and the function's offset in that module (the symbol's address as the module's image states it: ELF
 * virtual address, PE RVA), for pprof mappings and locations and {@code lib} prefixes; a Java frame its class's
 * source file, with the package's path ({@code java/lang/String.java}), and the method's first line, for pprof's
 * functions. Frames read from a format that does not keep them have neither (null and 0).
 *
 * <p>When the profile records line numbers ({@code lines}), a Java frame also carries the source line its sample was
 * at, and frames of one method at different lines are different frames, as in async-profiler's JFR files.
 *
 * @param name   the frame's display name, never empty
 * @param type   the kind of code
 * @param module native code: the module's file name (no directory); Java: the source file with its package's path;
 *               null when unknown or for other kinds
 * @param offset native code: the function's (or, without a symbol, the pc's) offset in the module; Java: the
 *               method's first source line; 0 when unknown
 * @param line   a Java frame's line at the sample, when the profile records lines; else 0
 */
public record Frame(String name, FrameType type, String module, long offset, int line) {

    /** The walk could not continue and did not know why. */
    public static final Frame UNKNOWN = new Frame("[unknown]", FrameType.MARKER);
    /** The stack was deeper than the engine records; frames nearer the root are missing. */
    public static final Frame TRUNCATED = new Frame("[truncated]", FrameType.MARKER);
    /**
     * Native frames the walk could not get through (code without unwind data, a frame pointer used for data), between
     * the frames it found from the sample and the Java frames it found again from where the thread left Java.
     */
    public static final Frame MISSING = new Frame("[missing frames]", FrameType.MARKER);
    /** A Java frame whose method's class was unloaded before the frame could be named. */
    public static final Frame UNLOADED_METHOD = new Frame("[unloaded method]", FrameType.MARKER);
    /** A Java frame whose method could not be read. */
    public static final Frame UNKNOWN_JAVA = new Frame("[unknown Java frame]", FrameType.MARKER);
    /** Time the profiler's own threads ran, counted but not walked (their stacks would always be its own code). */
    public static final Frame PROFILER = new Frame("[mixflame profiler]", FrameType.MARKER);
    /** The profile reached its bound on distinct stacks or frames; samples counted here have no stack. */
    public static final Frame OVERFLOW = new Frame("[overflow]", FrameType.MARKER);

    /** A frame whose place in memory is unknown or irrelevant (Java, markers, threads, frames read from text). */
    public Frame(String name, FrameType type) {
        this(name, type, null, 0, 0);
    }

    /** A frame that records no sampled line. */
    public Frame(String name, FrameType type, String module, long offset) {
        this(name, type, module, offset, 0);
    }

    public Frame {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("frame name is empty");
        }
        if (line < 0) {
            throw new IllegalArgumentException("negative line " + line);
        }
    }

    // Written out rather than generated: the generated record methods go through method handles, which costs in
    // the profiler's hot path, where every sample's frames are looked up by value. The offset is not part of a
    // frame's identity: for a named function it follows from the name and module, and without a name it is in it.
    @Override
    public boolean equals(Object o) {
        return o instanceof Frame other && type == other.type && line == other.line && name.equals(other.name)
                && Objects.equals(module, other.module);
    }

    @Override
    public int hashCode() {
        return ((name.hashCode() * 31 + type.ordinal()) * 31 + (module == null ? 0 : module.hashCode())) * 31 + line;
    }

    /** This frame at another sampled line (0: none); the same object when the line is already that. */
    public Frame atLine(int newLine) {
        return newLine == line ? this : new Frame(name, type, module, offset, newLine);
    }

    /** A native frame of {@code module}, at {@code offset} in it. */
    public static Frame nativeCode(String name, String module, long offset) {
        return new Frame(name, FrameType.NATIVE, module, offset);
    }

    /**
     * A Java frame of a method of {@code internalClassName} ({@code java/lang/String}) whose class was compiled from
     * {@code sourceFile} ({@code String.java}, or null when unknown), starting at {@code firstLine} (0 when unknown).
     */
    public static Frame javaMethod(String internalClassName, String methodName, FrameType type, String sourceFile,
                                   int firstLine) {
        String source = null;
        if (sourceFile != null && !sourceFile.isEmpty()) {
            int slash = internalClassName.lastIndexOf('/');
            source = slash < 0 ? sourceFile : internalClassName.substring(0, slash + 1) + sourceFile;
        }
        return new Frame(internalClassName + '.' + methodName, type, source, source == null ? 0 : Math.max(0, firstLine));
    }

    /** A Java frame named from a binary class name ({@code java.lang.String}) and a method name. */
    public static Frame java(String className, String methodName, FrameType type) {
        return new Frame(className.replace('.', '/') + '.' + methodName, type);
    }

    /** The root frame of one thread, in the form async-profiler's tools recognise. */
    public static Frame thread(String threadName, long osThreadId) {
        return new Frame("[" + threadName + " tid=" + osThreadId + "]", FrameType.THREAD);
    }
}
