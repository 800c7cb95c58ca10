package io.mixflame.capture.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel part of a blocked thread's stack, from {@code /proc/PID/task/TID/stack} (readable by root only):
 * function names, innermost first, such as {@code futex_wait_queue}.
 */
public final class KernelStack {
    private KernelStack() {
    }

    /** The kernel functions, innermost first; empty when the file cannot be read (not root) or the thread runs. */
    public static List<String> read(long pid, long tid) {
        List<String> frames = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "stack"),
                    StandardCharsets.US_ASCII)) {
                // [<0>] futex_wait_queue+0x60/0x90
                int bracket = line.indexOf("] ");
                if (bracket < 0) {
                    continue;
                }
                String symbol = line.substring(bracket + 2).trim();
                int plus = symbol.indexOf('+');
                String name = plus > 0 ? symbol.substring(0, plus) : symbol;
                if (!name.isEmpty()) {
                    frames.add(name);
                }
            }
        } catch (IOException | SecurityException e) {
            return List.of();
        }
        return frames;
    }
}
