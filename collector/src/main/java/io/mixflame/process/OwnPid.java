package io.mixflame.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's id. On Linux read from {@code /proc/self} rather than asked of {@code ProcessHandle}, whose first
 * use loads some twenty JDK classes (a process reaper's thread pool among them) and had the service's JIT compile
 * forty methods in its start-up; elsewhere, or when {@code /proc} says nothing, {@code ProcessHandle}.
 */
public final class OwnPid {
    private static final Path PROC_SELF = Path.of("/proc/self");
    private static volatile long pid;

    private OwnPid() {
    }

    /** This process's id. */
    public static long get() {
        long p = pid;
        if (p == 0) {
            p = fromProc();
            if (p <= 0) {
                p = fromHandle();
            }
            pid = p;
        }
        return p;
    }

    /** The JDK's answer, where {@code /proc} has none (Windows). */
    static long fromHandle() {
        return ProcessHandle.current().pid();
    }

    private static long fromProc() {
        try {
            if (!"Linux".equals(System.getProperty("os.name"))) {
                return -1;
            }
            return parse(Files.readSymbolicLink(PROC_SELF).toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The pid {@code /proc/self} links to, or -1 when {@code target} is not a plain decimal number. */
    static long parse(String target) {
        if (target.isEmpty() || target.length() > 18) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
