package io.mixflame.engine.wall;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import java.util.EnumSet;
import java.util.Locale;

/**
 * What a thread was doing at a wall-clock sample, shown as the stack's leaf frame and selectable with
 * {@code state=}: running, or blocked in the kernel in a kind of wait told by its system call (x86-64 numbers).
 */
public enum ThreadState {
    RUNNING("[running]"),
    SLEEPING("[sleeping]"),
    FUTEX("[blocked in futex]"),
    IO("[waiting for I/O]"),
    EVENTS("[waiting for events]"),
    CHILD("[waiting for a child]"),
    BLOCKED("[blocked]"),
    SYSCALL("[in a system call]");

    private final Frame frame;

    ThreadState(String name) {
        this.frame = new Frame(name, FrameType.MARKER);
    }

    /** The leaf frame. */
    public Frame frame() {
        return frame;
    }

    /** The {@code state=} option's word for it. */
    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state of a thread blocked in system call {@code number} (-1: blocked outside a call, a page fault). */
    public static ThreadState ofSyscall(long number) {
        return switch ((int) number) {
            case -1 -> BLOCKED;
            case 202 -> FUTEX;
            case 35, 230 -> SLEEPING;
            case 7, 23, 232, 270, 271, 281, 441 -> EVENTS;
            case 0, 17, 19, 43, 45, 47, 288, 299 -> IO;
            case 61, 247 -> CHILD;
            default -> SYSCALL;
        };
    }

    /**
     * Parses {@code state=} words separated by {@code +} or {@code |}.
     *
     * @throws IllegalArgumentException naming the accepted words
     */
    public static EnumSet<ThreadState> parseSet(String value) {
        EnumSet<ThreadState> set = EnumSet.noneOf(ThreadState.class);
        for (String word : value.split("[+|]")) {
            ThreadState match = null;
            for (ThreadState s : values()) {
                if (s.optionName().equals(word.trim())) {
                    match = s;
                }
            }
            if (match == null) {
                throw new IllegalArgumentException("unknown state '" + word + "' (expected running, sleeping, futex, io,"
                        + " events, child, blocked or syscall, joined with +)");
            }
            set.add(match);
        }
        return set;
    }
}
