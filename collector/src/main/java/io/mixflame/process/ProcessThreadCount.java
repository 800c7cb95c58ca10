package io.mixflame.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The number of threads of a process, from the link count of {@code /proc/PID/task} (threads + 2): one stat call,
 * a cheap test for threads started or ended. ({@code /proc/PID/stat} has the count too, but reading it sums the CPU
 * time of every thread.)
 */
public final class ProcessThreadCount {
    private ProcessThreadCount() {
    }

    /** The count, or -1 when it cannot be read. */
    public static int read(long pid) {
        try {
            Object links = Files.getAttribute(Path.of("/proc", Long.toString(pid), "task"), "unix:nlink");
            return links instanceof Integer n ? n - 2 : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
