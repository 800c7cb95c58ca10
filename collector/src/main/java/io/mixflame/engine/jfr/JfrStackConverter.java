package io.mixflame.engine.jfr;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.Arrays;
import java.util.List;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

/**
 * Turns a JFR stack trace (leaf first) into the profile's frames (root first). Reuses one array, so it is
 * meant for the single thread that consumes the event stream.
 */
final class JfrStackConverter {
    private Frame[] scratch = new Frame[128];
    private int depth;

    /** Converts; the result is valid in {@link #frames()} / {@link #depth()} until the next call. */
    void convert(RecordedStackTrace trace, RecordedThread thread, boolean threadRoot, boolean lines) {
        List<RecordedFrame> leafFirst = trace == null ? List.of() : trace.getFrames();
        int extra = (threadRoot ? 1 : 0) + (trace != null && trace.isTruncated() ? 1 : 0);
        int needed = leafFirst.size() + extra + 1;
        if (scratch.length < needed) {
            scratch = new Frame[Math.max(needed, scratch.length * 2)];
        }
        int i = 0;
        if (threadRoot) {
            scratch[i++] = threadFrame(thread);
        }
        if (trace != null && trace.isTruncated()) {
            scratch[i++] = Frame.TRUNCATED;
        }
        for (int f = leafFirst.size() - 1; f >= 0; f--) {
            scratch[i++] = frameOf(leafFirst.get(f), lines);
        }
        if (i == 0 || (i == extra && leafFirst.isEmpty())) {
            scratch[i++] = Frame.UNKNOWN;
        }
        depth = i;
    }

    /** Adds a frame below the leaf of the stack converted last (the class an allocation or a lock event names). */
    void appendLeaf(Frame leaf) {
        if (scratch.length == depth) {
            scratch = Arrays.copyOf(scratch, depth * 2);
        }
        scratch[depth++] = leaf;
    }

    Frame[] frames() {
        return scratch;
    }

    int depth() {
        return depth;
    }

    private static Frame threadFrame(RecordedThread thread) {
        if (thread == null) {
            return Frame.thread("unknown thread", 0);
        }
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return Frame.thread(name == null ? "unnamed" : name, thread.getOSThreadId());
    }

    private static Frame frameOf(RecordedFrame frame, boolean lines) {
        RecordedMethod method = frame.getMethod();
        if (method == null) {
            return Frame.UNKNOWN;
        }
        String type = method.getType() == null ? "[unknown class]" : method.getType().getName();
        Frame f = Frame.java(type, method.getName(), typeOf(frame.getType()));
        return lines ? f.atLine(Math.max(0, frame.getLineNumber())) : f;
    }

    /**
     * JFR names frame kinds in words. "Native" there means a Java method declared native, which runs through
     * a compiled wrapper; the C code beneath it is not in JFR's stack, so it is typed as compiled Java.
     */
    static FrameType typeOf(String jfrType) {
        if (jfrType == null) {
            return FrameType.JIT_COMPILED;
        }
        if (jfrType.startsWith("Interpreted")) {
            return FrameType.INTERPRETED;
        }
        if (jfrType.startsWith("Inlined")) {
            return FrameType.INLINED;
        }
        if (jfrType.startsWith("C1")) {
            return FrameType.C1_COMPILED;
        }
        return FrameType.JIT_COMPILED;
    }
}
