package io.mixflame.platform.linux;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this system's ptrace policy says, for the one line that tells a user why threads could not be stopped: Yama's
 * {@code ptrace_scope} (0 classic, 1 descendants and declared tracers only, 2 administrators only, 3 nobody), or its
 * absence (then a refusal comes from permissions or a seccomp filter).
 */
final class PtracePolicy {
    private static final Path YAMA = Path.of("/proc/sys/kernel/yama/ptrace_scope");

    private PtracePolicy() {
    }

    /** A clause that starts with "; ", naming the policy and what would allow tracing. */
    static String describe() {
        String scope;
        try {
            // By lines: Files.readString can stop early on a /proc file, whose size is 0.
            scope = Files.readAllLines(YAMA).get(0).strip();
        } catch (IOException | RuntimeException e) {
            return "; no Yama policy here: a seccomp filter (a container's profile) or another user's process";
        }
        return switch (scope) {
            case "0", "1" -> "; Yama ptrace_scope is " + scope + ", which allows it: a seccomp filter (a container's"
                    + " profile) or another user's process refuses it";
            case "2" -> "; Yama ptrace_scope is 2: only a process with CAP_SYS_PTRACE may trace";
            default -> "; Yama ptrace_scope is " + scope + ": no process may trace";
        };
    }
}
