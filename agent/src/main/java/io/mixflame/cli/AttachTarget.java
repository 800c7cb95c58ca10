package io.mixflame.cli;

import io.mixflame.process.MemoryMapping;
import io.mixflame.process.linux.ProcMaps;
import java.io.IOException;
import java.util.List;

/**
 * Decides whether a process may be sent the JDK's attach request. On Linux that request starts with SIGQUIT, which a
 * HotSpot JVM answers and any other process dies of; so a process must be seen to have HotSpot loaded (its
 * {@code libjvm.so} mapped) before anything is signalled.
 */
final class AttachTarget {
    private AttachTarget() {
    }

    /**
     * Why {@code pid} must not be attached to, or null when it is a JVM.
     *
     * @param pid a process id
     */
    static String refusal(long pid) {
        List<MemoryMapping> maps;
        try {
            maps = ProcMaps.read(pid);
        } catch (IOException e) {
            return ProcessHandle.of(pid).isPresent()
                    ? "cannot read the memory map of process " + pid + " (another user's process?)"
                    : "no process " + pid;
        }
        return hasHotSpot(maps) ? null
                : "process " + pid + " is not a HotSpot JVM (no libjvm.so mapped); nothing was sent to it";
    }

    /** Whether a memory map shows HotSpot's library. */
    static boolean hasHotSpot(List<MemoryMapping> maps) {
        for (MemoryMapping m : maps) {
            if (m.path().endsWith("/libjvm.so")) {
                return true;
            }
        }
        return false;
    }
}
