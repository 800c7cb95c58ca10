package io.mixflame.engine.wall;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A thread's {@code /proc/PID/task/TID/syscall} kept open and read again from offset 0 at every tick, so that
 * sampling many idle threads costs one read each, without opening files.
 */
final class SyscallLineReader implements AutoCloseable {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(256);

    SyscallLineReader(long pid, int tid) throws IOException {
        this.channel = FileChannel.open(Path.of("/proc", Long.toString(pid), "task", Integer.toString(tid), "syscall"),
                StandardOpenOption.READ);
    }

    /** The current line, without the newline; throws when the thread is gone. */
    String read() throws IOException {
        buffer.clear();
        int n = channel.read(buffer, 0);
        if (n <= 0) {
            throw new IOException("thread gone");
        }
        int end = n;
        while (end > 0 && (buffer.get(end - 1) == '\n' || buffer.get(end - 1) == 0)) {
            end--;
        }
        return new String(buffer.array(), 0, end, StandardCharsets.US_ASCII);
    }

    /** Whether the line says the thread is on a CPU. */
    static boolean isRunning(String line) {
        return line.startsWith("running");
    }

    /** The syscall number at the start of a blocked thread's line. */
    static long syscall(String line) {
        int space = line.indexOf(' ');
        try {
            return Long.parseLong(space < 0 ? line : line.substring(0, space));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a /proc file cannot lose anything
        }
    }
}
