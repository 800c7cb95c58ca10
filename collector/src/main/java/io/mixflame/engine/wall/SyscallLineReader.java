package io.mixflame.engine.wall;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A thread's {@code /proc/PID/task/TID/syscall}, read again from offset 0 at every visit: kept open, so that sampling
 * many idle threads costs one read each without opening files, while the process's descriptors allow; else opened
 * for each read (descriptors are the service's, shared with everything else it opens).
 */
final class SyscallLineReader implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer;

    /**
     * @param keepOpen whether to hold a descriptor for the thread's file
     * @param scratch  where a reader that holds none reads (256 bytes), shared by the readers one thread uses
     */
    SyscallLineReader(long pid, int tid, boolean keepOpen, ByteBuffer scratch) throws IOException {
        this.path = Path.of("/proc", Long.toString(pid), "task", Integer.toString(tid), "syscall");
        this.channel = keepOpen ? FileChannel.open(path, StandardOpenOption.READ) : null;
        this.buffer = keepOpen ? ByteBuffer.allocate(256) : scratch;
    }

    /** Whether it holds a descriptor. */
    boolean open() {
        return channel != null;
    }

    /** The current line, without the newline; throws when the thread is gone. */
    String read() throws IOException {
        if (channel == null) {
            try (FileChannel once = FileChannel.open(path, StandardOpenOption.READ)) {
                return read(once);
            }
        }
        return read(channel);
    }

    private String read(FileChannel from) throws IOException {
        buffer.clear();
        int n = from.read(buffer, 0);
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
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing a /proc file cannot lose anything
        }
    }
}
