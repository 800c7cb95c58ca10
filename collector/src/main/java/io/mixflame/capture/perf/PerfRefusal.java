package io.mixflame.capture.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Explains in one line why the kernel refused a perf event: the errno, the paranoid level, a seccomp filter. */
public final class PerfRefusal {
    private PerfRefusal() {
    }

    /** A sentence for {@code -errno} returned by perf_event_open. */
    public static String explain(int negativeErrno) {
        int errno = -negativeErrno;
        String name = switch (errno) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 3 -> "ESRCH";
            case 7 -> "E2BIG";
            case 13 -> "EACCES";
            case 19 -> "ENODEV";
            case 22 -> "EINVAL";
            case 24 -> "EMFILE";
            case 38 -> "ENOSYS";
            case 95 -> "EOPNOTSUPP";
            default -> "errno " + errno;
        };
        String why = switch (errno) {
            case 1, 13 -> "not permitted";
            case 2, 19, 95 -> "this kernel or machine has no such event";
            case 38 -> "perf_event_open is not available (kernel without perf events, or blocked)";
            case 22, 7 -> "the kernel rejected the event's attributes";
            case 24 -> "too many open files";
            default -> "refused";
        };
        return "perf_event_open failed with " + name + " (" + why + "); kernel.perf_event_paranoid=" + paranoid()
                + seccompNote();
    }

    static String paranoid() {
        try {
            // By lines: Files.readString can stop after the first byte of a /proc file, whose size is 0 ("-1" read "-").
            return Files.readAllLines(Path.of("/proc/sys/kernel/perf_event_paranoid")).get(0).strip();
        } catch (IOException | IndexOutOfBoundsException e) {
            return "unknown";
        }
    }

    private static String seccompNote() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Seccomp:") && line.substring(8).strip().equals("2")) {
                    return "; a seccomp filter is active (a container's default profile blocks perf_event_open)";
                }
            }
        } catch (IOException e) {
            return "";
        }
        return "";
    }
}
