package io.mixflame.process.linux;

import io.mixflame.process.ThreadSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The threads of a Linux process from {@code /proc/PID/task}: the directory's link count (threads + 2) for the cheap
 * count — one stat call, where {@code /proc/PID/stat} would sum the CPU time of every thread — its entries for the
 * list, and each thread's {@code comm} for its name.
 */
public final class ProcThreadSource implements ThreadSource {
    private final Path taskDir;
    /** Whether the kernel keeps {@code schedstat} files; found out at the first thread without one. */
    private volatile boolean schedstat = true;
    /** The threads' {@code schedstat} files, held open for the sampler that asks for CPU times at every tick. */
    private final TaskFileReader schedstats;

    /** The threads of process {@code pid}. */
    public ProcThreadSource(long pid) {
        this.taskDir = Path.of("/proc", Long.toString(pid), "task");
        this.schedstats = new TaskFileReader(pid, "schedstat", 128);
    }

    @Override
    public int count() {
        try {
            Object links = Files.getAttribute(taskDir, "unix:nlink");
            return links instanceof Integer n ? n - 2 : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public int[] list() {
        int[] tids = new int[64];
        int n = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path p : tasks) {
                int tid = parseTid(p.getFileName().toString());
                if (tid > 0) {
                    if (n == tids.length) {
                        tids = Arrays.copyOf(tids, n * 2);
                    }
                    tids[n++] = tid;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new int[0];
        }
        synchronized (schedstats) {
            // A thread that ended gives its file back: descriptors are held only for the living.
            schedstats.retainOnly(tids, n);
        }
        return Arrays.copyOf(tids, n);
    }

    /** One stat of {@code /proc/PID/task/TID}, not a listing of every thread. */
    @Override
    public boolean alive(int tid) {
        return Files.isDirectory(taskDir.resolve(Integer.toString(tid)));
    }

    /**
     * The thread's time on a CPU in nanoseconds: {@code schedstat}'s first field, the scheduler's own count (a
     * sampler weighting each sample by the CPU used since its last needs more than the 10 ms steps of {@code stat}),
     * else {@code stat}'s utime + stime on kernels without it.
     */
    @Override
    public long cpuTimeNanos(int tid) {
        if (schedstat) {
            synchronized (schedstats) {
                if (schedstats.read(tid) > 0) {
                    return firstNumber(schedstats.buffer());
                }
            }
            Path thread = taskDir.resolve(Integer.toString(tid));
            if (!Files.isDirectory(thread)) {
                return -1;
            }
            schedstat = Files.exists(thread.resolve("schedstat"));
            if (schedstat) {
                return -1;
            }
        }
        try {
            String stat = Files.readString(taskDir.resolve(Integer.toString(tid)).resolve("stat"),
                    StandardCharsets.UTF_8);
            return cpuTimeOfStatLine(stat);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * The decimal number at the start of {@code text}, or -1 when there is none: {@code schedstat}'s first, the
     * nanoseconds run on a CPU.
     */
    static long firstNumber(ByteBuffer text) {
        long value = 0;
        int digits = 0;
        for (int i = text.position(); i < text.limit() && digits < 19; i++, digits++) {
            byte b = text.get(i);
            if (b < '0' || b > '9') {
                break;
            }
            value = value * 10 + (b - '0');
        }
        return digits == 0 ? -1 : value;
    }

    /**
     * utime + stime of a {@code /proc/.../stat} line, in nanoseconds: fields 14 and 15, counted after the command
     * name's closing parenthesis (a name may hold spaces and parentheses), in clock ticks of 1/100 s (USER_HZ,
     * which is what /proc reports whatever the kernel's own tick).
     */
    static long cpuTimeOfStatLine(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L;
    }

    @Override
    public String name(int tid) {
        try {
            return Files.readString(taskDir.resolve(Integer.toString(tid)).resolve("comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static int parseTid(String name) {
        int tid = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9' || tid > (Integer.MAX_VALUE - 9) / 10) {
                return -1;
            }
            tid = tid * 10 + (c - '0');
        }
        return name.isEmpty() ? -1 : tid;
    }
}
