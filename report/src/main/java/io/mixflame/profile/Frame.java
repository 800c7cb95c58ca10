package io.mixflame.profile;

import java.util.Objects;

/**
 * One frame of a stack: a name and the kind of code it ran.
 *
 * <p>Java methods are named {@code pkg/Class.method} (the form async-profiler and flamegraph tools use);
 * native code by its symbol; markers and threads in square brackets.
 *
 * @param name the frame's display name, never empty
 * @param type the kind of code
 */
public record Frame(String name, FrameType type) {

    /** The walk could not continue and did not know why. */
    public static final Frame UNKNOWN = new Frame("[unknown]", FrameType.MARKER);
    /** The stack was deeper than the engine records; frames nearer the root are missing. */
    public static final Frame TRUNCATED = new Frame("[truncated]", FrameType.MARKER);
    /** A Java frame whose method's class was unloaded before the frame could be named. */
    public static final Frame UNLOADED_METHOD = new Frame("[unloaded method]", FrameType.MARKER);
    /** A Java frame whose method could not be read. */
    public static final Frame UNKNOWN_JAVA = new Frame("[unknown Java frame]", FrameType.MARKER);
    /** The profile reached its bound on distinct stacks or frames; samples counted here have no stack. */
    public static final Frame OVERFLOW = new Frame("[overflow]", FrameType.MARKER);

    public Frame {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("frame name is empty");
        }
    }

    // Written out rather than generated: the generated record methods go through method handles, which costs in
    // the profiler's hot path, where every sample's frames are looked up by value.
    @Override
    public boolean equals(Object o) {
        return o instanceof Frame other && type == other.type && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + type.ordinal();
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
