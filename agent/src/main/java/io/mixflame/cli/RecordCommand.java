package io.mixflame.cli;

import io.mixflame.agent.AgentOptions;
import io.mixflame.agent.log.LogLevel;
import io.mixflame.engine.FixedPoint;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.profile.Durations;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.ProfileFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code record --pid PID [-d|--duration 30s] -f|--file OUT [-e|--event E] [-i|--interval I] [-t|--threads]
 * [OPTIONS]}: profiles another running process from outside,
 * without loading anything into it, as asprof does: with perf_events on Linux, by stopping its threads one at a
 * time on Windows ({@link ExternalEngines}). OPTIONS are the agent's
 * ({@code interval=1ms,threads,include=...}); asprof's short flags stand for some of them. Ends early, writing what
 * it has, when the target exits or on Ctrl-C.
 */
final class RecordCommand {
    private static final Logger LOG = LoggerFactory.getLogger(RecordCommand.class);
    /** Set by the boot classes in a JVM they started to record in ({@code io.mixflame.boot.ToolJvmRelaunch}). */
    static final String RELAUNCHED_PROPERTY = "mixflame.relaunched";

    private RecordCommand() {
    }

    /**
     * The cost of the JVM that started this one, counted with the profiler's: the CPU time it had used when it
     * started this one (it only waits after), over the recording.
     *
     * @param cpuNanos the value the launcher gave {@value #RELAUNCHED_PROPERTY}: its CPU time in nanoseconds
     */
    static String launcherNote(String cpuNanos, long elapsedNanos) {
        long cpu;
        try {
            cpu = Long.parseLong(cpuNanos);
        } catch (NumberFormatException e) {
            cpu = -1;
        }
        if (cpu < 0) {
            return "the JVM that started this one: its CPU time is unknown";
        }
        return "the JVM that started this one: " + FixedPoint.format(cpu / 1e9, 2)
                + " s of CPU, " + FixedPoint.format(100.0 * cpu / Math.max(1, elapsedNanos), 1)
                + "% of one core over the recording";
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
        if (options.logLevel() != null) {
            LogLevel.set(options.logLevel());
        }
        String relaunched = System.getProperty(RELAUNCHED_PROPERTY);
        ProcessHandle launcher = relaunched != null ? ProcessHandle.current().parent().orElse(null) : null;
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
        if (launcher != null) {
            // The JVM the user started waits for this one; if it is gone (killed), nobody is left to wait for.
            launcher.onExit().thenRun(done::countDown);
            LOG.debug("recording in a JVM of its own (C1 alone), started by {}", launcher.pid());
        }
        try {
            done.await(options.durationNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.stop();
        long elapsed = System.nanoTime() - startNanos;
        List<String> notes = engine.costNotes();
        if (relaunched != null) {
            notes = new ArrayList<>(notes);
            notes.add(launcherNote(relaunched, elapsed));
        }
        Profile result = profile.snapshot(new ProfileInfo(engine.name(), options.event().optionName(), options.intervalNanos(),
                start, elapsed, notes, engine.modules()));
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
