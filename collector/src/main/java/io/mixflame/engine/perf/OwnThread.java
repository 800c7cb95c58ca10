package io.mixflame.engine.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kernel's id of the calling thread, which the JDK does not give (Thread ids are the JVM's own). */
final class OwnThread {
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private OwnThread() {
    }

    /** The calling thread's tid, from {@code /proc/thread-self} ({@code PID/task/TID}), or -1 when unreadable. */
    static int tid() {
        try {
            String link = Files.readSymbolicLink(THREAD_SELF).toString();
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
