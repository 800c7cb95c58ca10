package io.mixflame.process.linux;

import io.mixflame.process.OwnThreadId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The calling thread's tid from {@code /proc/thread-self}, a link to {@code PID/task/TID}: no native call. */
public final class ProcThreadSelf implements OwnThreadId {
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    @Override
    public long current() {
        return tid();
    }

    /** The calling thread's tid, or -1 when unreadable. */
    public static int tid() {
        try {
            String link = Files.readSymbolicLink(THREAD_SELF).toString();
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
