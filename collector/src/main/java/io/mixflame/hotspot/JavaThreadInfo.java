package io.mixflame.hotspot;

/**
 * One Java thread of a JVM.
 *
 * @param thread   the JavaThread's address
 * @param tid      the Linux thread id
 * @param name     the thread's full Java name, or null when it could not be read
 * @param state    the VM's thread state (see {@link #stateName()})
 * @param anchorSp the last Java frame's sp when the thread is outside Java code, else 0
 * @param anchorPc that frame's pc (may be 0)
 * @param anchorFp that frame's fp (may be 0)
 * @param stackLow  lowest address of the thread's stack
 * @param stackHigh first address above it
 */
public record JavaThreadInfo(long thread, long tid, String name, int state, long anchorSp, long anchorPc,
                             long anchorFp, long stackLow, long stackHigh) {

    /** The state in HotSpot's words. */
    public String stateName() {
        return switch (state) {
            case 2, 3 -> "new";
            case 4 -> "in native";
            case 5 -> "in native (transition)";
            case 6 -> "in VM";
            case 7 -> "in VM (transition)";
            case 8 -> "in Java";
            case 9 -> "in Java (transition)";
            case 10 -> "blocked";
            case 11 -> "blocked (transition)";
            default -> "state " + state;
        };
    }
}
