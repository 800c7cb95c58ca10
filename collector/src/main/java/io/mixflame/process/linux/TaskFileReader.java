package io.mixflame.process.linux;

import io.mixflame.process.OwnPid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * One small {@code /proc/PID/task/TID/NAME} file of each thread, read again from offset 0 each time: the kernel makes
 * such a file's text anew at every read from the start, so a descriptor held open costs one system call a read where
 * opening the file costs five. Descriptors are held for {@value #MOST_HELD} threads at most (those read first), and
 * only when the files are another process's: a profiler inside the process would spend the service's descriptors.
 * Others are opened for each read. Used by one thread at a time.
 */
public final class TaskFileReader implements AutoCloseable {
    /** Threads whose file stays open at most: a sampler's own descriptors, bounded whatever the thread count. */
    static final int MOST_HELD = 256;

    private final Path taskDir;
    private final String name;
    private final ByteBuffer buffer;
    private final int mostHeld;
    private int[] tids = new int[16];
    private FileChannel[] channels = new FileChannel[16];
    private int held;

    /**
     * @param pid      the process
     * @param name     the file of each thread ({@code schedstat}, {@code syscall})
     * @param capacity the bytes a read takes at most
     */
    public TaskFileReader(long pid, String name, int capacity) {
        this.taskDir = Path.of("/proc", Long.toString(pid), "task");
        this.name = name;
        this.buffer = ByteBuffer.allocate(capacity);
        this.mostHeld = pid == OwnPid.get() ? 0 : MOST_HELD;
    }

    /**
     * Reads thread {@code tid}'s file into {@link #buffer()} (from position 0 to its limit).
     *
     * @return the bytes read, or -1 when the thread is gone or its file cannot be read
     */
    public int read(int tid) {
        buffer.clear();
        int at = indexOf(tid);
        try {
            if (at >= 0) {
                return finish(channels[at].read(buffer, 0));
            }
            if (held < mostHeld) {
                FileChannel channel = FileChannel.open(taskDir.resolve(Integer.toString(tid)).resolve(name),
                        StandardOpenOption.READ);
                hold(tid, channel);
                return finish(channel.read(buffer, 0));
            }
            try (FileChannel once = FileChannel.open(taskDir.resolve(Integer.toString(tid)).resolve(name),
                    StandardOpenOption.READ)) {
                return finish(once.read(buffer, 0));
            }
        } catch (IOException | RuntimeException e) {
            if (at >= 0) {
                release(at);
            }
            return -1;
        }
    }

    /** What the last read read, from position 0. */
    public ByteBuffer buffer() {
        return buffer;
    }

    private int finish(int n) {
        buffer.flip();
        return n <= 0 ? -1 : n;
    }

    /** Closes the files of threads not among the first {@code n} of {@code alive} (a new listing). */
    public void retainOnly(int[] alive, int n) {
        int[] sorted = Arrays.copyOf(alive, n);
        Arrays.sort(sorted);
        for (int i = held - 1; i >= 0; i--) {
            if (Arrays.binarySearch(sorted, tids[i]) < 0) {
                release(i);
            }
        }
    }

    /** Threads whose file is held open now. */
    int held() {
        return held;
    }

    private int indexOf(int tid) {
        for (int i = 0; i < held; i++) {
            if (tids[i] == tid) {
                return i;
            }
        }
        return -1;
    }

    private void hold(int tid, FileChannel channel) {
        if (held == tids.length) {
            tids = Arrays.copyOf(tids, held * 2);
            channels = Arrays.copyOf(channels, held * 2);
        }
        tids[held] = tid;
        channels[held++] = channel;
    }

    private void release(int i) {
        try {
            channels[i].close();
        } catch (IOException e) {
            // closing a /proc file cannot lose anything
        }
        held--;
        tids[i] = tids[held];
        channels[i] = channels[held];
        channels[held] = null;
    }

    @Override
    public void close() {
        while (held > 0) {
            release(held - 1);
        }
    }
}
