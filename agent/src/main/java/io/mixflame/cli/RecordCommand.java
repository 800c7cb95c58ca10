package io.mixflame.cli;

import io.mixflame.agent.AgentOptions;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.profile.Durations;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.ProfileFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code record --pid PID [-d|--duration 30s] -f|--file OUT [-e|--event E] [-i|--interval I] [-t|--threads]
 * [OPTIONS]}: profiles another running process from outside,
 * without loading anything into it, as asprof does: with perf_events on Linux, by stopping its threads one at a
 * time on Windows ({@link ExternalEngines}). OPTIONS are the agent's
 * ({@code interval=1ms,threads,include=...}); asprof's short flags stand for some of them. Ends early, writing what
 * it has, when the target exits or on Ctrl-C.
 */
final class RecordCommand {
    private RecordCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        RecordArguments parsed;
        try {
            parsed = RecordArguments.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("mixflame record: " + e.getMessage() + " (see: record --help)");
            return 2;
        }
        long pid = parsed.pid();
        AgentOptions options = parsed.options();
        String file = options.file();
        long start = System.currentTimeMillis();
        long startNanos = System.nanoTime();
        OutsideSampling sampling;
        try {
            sampling = OutsideSampling.start("record", pid, options, err);
        } catch (OutsideSampling.NotStarted e) {
            err.println(e.getMessage());
            return e.status;
        }
        ProcessHandle target = sampling.target();
        SamplingEngine engine = sampling.engine();
        ProfileAccumulator profile = sampling.profile();
        out.println("recording " + pid + " for " + Durations.format(options.durationNanos()) + " with the "
                + engine.name() + " engine");
        CountDownLatch done = new CountDownLatch(1);
        Thread onInterrupt = new Thread(() -> {
            done.countDown();
            try {
                // The main thread writes the file; the JVM waits for it here rather than exiting mid-write.
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mixflame-record-exit");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        target.onExit().thenRun(done::countDown);
        try {
            done.await(options.durationNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.stop();
        Profile result = profile.snapshot(new ProfileInfo(engine.name(), options.event().optionName(), options.intervalNanos(),
                start, System.nanoTime() - startNanos, engine.costNotes(), engine.modules()));
        Path path = Path.of(file);
        try {
            ProfileFiles.write(result, path, options.reportOptions());
        } catch (IOException | RuntimeException e) {
            err.println("mixflame record: cannot write " + file + ": " + e.getMessage());
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException e) {
                // shutting down already: the hook is running and ends on its own
            }
        }
        out.println(result.totalSamples() + " samples written to " + path.toAbsolutePath());
        for (String note : result.info().notes()) {
            out.println("profiler cost: " + note);
        }
        return 0;
    }
}
