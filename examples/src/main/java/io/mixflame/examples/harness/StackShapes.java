package io.mixflame.examples.harness;

import java.util.List;
import java.util.function.Predicate;

/** Tests on a stack's shape (root first) that tell whether a profiler saw native code among the Java frames. */
final class StackShapes {
    private StackShapes() {
    }

    /** A Java frame with native code deeper in the stack: Java called into C. */
    static boolean nativeUnderJava(List<String> frames) {
        int java = firstOfKind(frames, FrameKind.JAVA, 0);
        return java >= 0 && firstMatching(frames, f -> FrameKind.of(f) == FrameKind.NATIVE, java + 1) >= 0;
    }

    /** Java, then native code, then Java again deeper: C called back into Java. */
    static boolean javaNativeJava(List<String> frames) {
        return sandwich(frames, f -> FrameKind.of(f) == FrameKind.NATIVE);
    }

    /** Java, then libc's qsort, then Java again: the mixed workload's comparator callback. */
    static boolean javaQsortJava(List<String> frames) {
        return sandwich(frames, f -> FrameKind.of(f) == FrameKind.NATIVE && f.contains("qsort"));
    }

    private static boolean sandwich(List<String> frames, Predicate<String> middle) {
        int java = firstOfKind(frames, FrameKind.JAVA, 0);
        if (java < 0) {
            return false;
        }
        int mid = firstMatching(frames, middle, java + 1);
        return mid >= 0 && firstOfKind(frames, FrameKind.JAVA, mid + 1) >= 0;
    }

    private static int firstOfKind(List<String> frames, FrameKind kind, int from) {
        return firstMatching(frames, f -> FrameKind.of(f) == kind, from);
    }

    private static int firstMatching(List<String> frames, Predicate<String> test, int from) {
        for (int i = from; i < frames.size(); i++) {
            if (test.test(frames.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
