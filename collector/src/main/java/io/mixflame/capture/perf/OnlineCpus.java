package io.mixflame.capture.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The CPUs a thread can run on, from {@code /sys/devices/system/cpu/online} ("0-3,8,10-11"): a per-CPU event is
 * opened on each. Not the JVM's available processors, which a container's quota or the process's affinity lowers
 * while the kernel still numbers and schedules on every online CPU.
 */
public final class OnlineCpus {
    private static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");
    private static final int MAX_CPUS = 8192;

    private OnlineCpus() {
    }

    /** The online CPUs' numbers, ascending; the first {@code availableProcessors} numbers when the file is unreadable. */
    public static int[] list() {
        try {
            int[] cpus = parse(String.join(",", Files.readAllLines(ONLINE, StandardCharsets.US_ASCII)));
            if (cpus.length > 0) {
                return cpus;
            }
        } catch (IOException | RuntimeException e) {
            // The fallback below.
        }
        int n = Runtime.getRuntime().availableProcessors();
        int[] cpus = new int[n];
        for (int i = 0; i < n; i++) {
            cpus[i] = i;
        }
        return cpus;
    }

    /** The numbers of a CPU list in the kernel's format; empty when it is malformed or names more than 8192. */
    static int[] parse(String list) {
        int[] cpus = new int[16];
        int n = 0;
        for (String part : list.strip().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            int first;
            int last;
            try {
                first = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1));
            } catch (NumberFormatException e) {
                return new int[0];
            }
            if (first < 0 || last < first || last >= MAX_CPUS || n + (last - first + 1) > MAX_CPUS) {
                return new int[0];
            }
            for (int c = first; c <= last; c++) {
                if (n == cpus.length) {
                    cpus = Arrays.copyOf(cpus, n * 2);
                }
                cpus[n++] = c;
            }
        }
        int[] result = Arrays.copyOf(cpus, n);
        Arrays.sort(result);
        return result;
    }
}
