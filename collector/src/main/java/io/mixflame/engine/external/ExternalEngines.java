package io.mixflame.engine.external;

import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.perf.PerfEngine;
import io.mixflame.engine.suspend.SuspendEngine;
import io.mixflame.platform.host.TargetProcesses;
import java.io.IOException;

/**
 * The engine that profiles another process from outside ({@code record --pid}), for the system the profiler runs
 * on: perf_events on Linux, which the kernel drives; stopping threads one at a time on Windows, which has no
 * equivalent that a program may use without a driver.
 */
public final class ExternalEngines {
    private ExternalEngines() {
    }

    /**
     * An engine for process {@code pid}, not yet started.
     *
     * @throws IOException when the process cannot be opened (Windows opens it here; Linux when sampling starts)
     */
    public static SamplingEngine forProcess(long pid) throws IOException {
        return forProcess(pid, false);
    }

    /**
     * The same, stopping threads one at a time on Linux too when {@code stopThreads} (ptrace's interrupt, for where
     * perf_events are refused: a container's seccomp profile, {@code perf_event_paranoid} 3 or 4).
     */
    public static SamplingEngine forProcess(long pid, boolean stopThreads) throws IOException {
        if (TargetProcesses.onWindows()) {
            return SuspendEngine.owning(TargetProcesses.open(pid));
        }
        return stopThreads ? SuspendEngine.owning(TargetProcesses.open(pid), "ptrace")
                : new PerfEngine(pid, new LinuxPerfSyscalls());
    }
}
