package io.mixflame.engine.wall;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The number of threads of a process, field 20 of {@code /proc/PID/stat}: a cheap test for threads started or ended. */
final class ProcessThreadCount {
    private static final int FIELD = 20;

    private ProcessThreadCount() {
    }

    /** The count, or -1 when it cannot be read. */
    static int read(long pid, ByteBuffer buffer) {
        try (FileChannel ch = FileChannel.open(Path.of("/proc", Long.toString(pid), "stat"), StandardOpenOption.READ)) {
            buffer.clear();
            int n = ch.read(buffer, 0);
            // Fields are counted after the command name, which is in parentheses and may hold spaces.
            int i = n - 1;
            while (i >= 0 && buffer.get(i) != ')') {
                i--;
            }
            int field = 2;
            int value = -1;
            for (i = i + 1; i < n; i++) {
                byte b = buffer.get(i);
                if (b == ' ') {
                    field++;
                    if (field > FIELD) {
                        break;
                    }
                    value = field == FIELD ? 0 : -1;
                } else if (field == FIELD && b >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                }
            }
            return value;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
