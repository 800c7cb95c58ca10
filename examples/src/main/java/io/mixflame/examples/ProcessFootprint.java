package io.mixflame.examples;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's peak resident memory, CPU time so far and live heap, printed as the last line of every workload:
 * {@code footprint: VmHWM 123456 kB, process CPU 2345 ms, live heap 4321 kB}. The live heap is what a full
 * collection leaves, made for it after the workload's work: with a profiler attached, what the profiler keeps on the
 * application's heap shows as the difference from a run without one. The harness reads it; measuring from inside works the
 * same under every profiler, whereas the process is gone by the time its parent could look.
 */
final class ProcessFootprint {
    /** What the footprint line starts with. */
    static final String PREFIX = "footprint: ";

    private ProcessFootprint() {
    }

    /** Prints the footprint line. */
    static void print() {
        long cpu = processCpuMillis();
        System.out.println(PREFIX + "VmHWM " + peakResidentKilobytes() + " kB, process CPU " + cpu + " ms, live heap "
                + liveHeapKilobytes() + " kB");
    }

    /** {@code VmHWM} from {@code /proc/self/status}, or -1 where there is none. */
    static long peakResidentKilobytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring("VmHWM:".length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Not Linux, or a format we do not know: say so with -1 rather than fail the workload.
        }
        return -1;
    }

    /** The heap in use after a full collection, or -1 where the JVM does not say. */
    static long liveHeapKilobytes() {
        try {
            System.gc();
            return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
        } catch (LinkageError e) {
            return -1;
        }
    }

    private static long processCpuMillis() {
        try {
            if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
                return os.getProcessCpuTime() / 1_000_000;
            }
        } catch (LinkageError e) {
            // A runtime linked without java.management (a jlink image, such as the Windows JRE the tests use).
        }
        return -1;
    }
}
