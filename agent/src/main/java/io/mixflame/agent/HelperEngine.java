package io.mixflame.agent;

import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.SetIdResolvingSink;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.process.OwnPid;
import io.mixflame.profile.Durations;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.SampleSink;
import io.mixflame.profile.NativeModule;
import io.mixflame.report.SampleStreamReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples this JVM from a helper process: {@code java -jar mixflame.jar helper --pid SELF}, started from this JVM's
 * own {@code java.home}, samples it from outside (on Windows by stopping its threads, which a thread of this JVM must
 * not do to another) and streams the stacks back; a reader thread here feeds them to the profile. Stopping closes the
 * helper's standard input; it then sends what it still has and its cost notes, and exits.
 *
 * <p>On Linux the helper samples with perf_events, or, asked to stop threads ({@code ptrace}), with ptrace's
 * interrupt: this JVM then names the helper as its tracer ({@code PR_SET_PTRACER}), which Yama's
 * {@code ptrace_scope} 1 (Ubuntu's default) requires of a process that traces its parent. A thread the helper has
 * stopped is let go by the kernel if the helper dies, so the helper's death cannot leave this JVM stopped.
 */
final class HelperEngine implements SamplingEngine {
    private static final Logger LOG = LoggerFactory.getLogger(HelperEngine.class);
    private static final long START_TIMEOUT_SECONDS = 30;
    private static final long STOP_TIMEOUT_SECONDS = 10;
    private static final int MAX_NOTES = 32;
    private static final int MAX_MODULES = 4096;
    /**
     * The helper JVM's heap: it keeps its tables off-heap and streams each sample on, so a few MiB live; without a
     * limit the JVM would size its heap by the machine's (or container's) memory, the service's to share.
     */
    static final String HEAP_LIMIT = "-Xmx64m";
    /** The helper's peak resident size in KiB as last read ({@code VmHWM}), or -1. */
    private volatile long helperPeakKib = -1;
    /** The helper's process id, kept once it stopped for the notes, or -1. */
    private volatile long helperPid = -1;

    /** Guarded by itself, not by the engine: start() holds the engine while it waits for the first note. */
    private final List<String> notes = new ArrayList<>();
    /** The modules the helper named, in the order it sent them (the main executable first); bounded. */
    private final List<NativeModule> modules = new ArrayList<>();
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile Process helper;
    private Thread reader;
    private volatile String lastError = "";
    private volatile boolean inlinedFrameDetail;
    /** Whether the helper was given the label log: its samples then carry set ids, resolved here. */
    private boolean labels;
    private final boolean stopThreads;

    /** @param stopThreads whether the helper stops threads with ptrace (Linux) rather than sampling with perf */
    HelperEngine(boolean stopThreads) {
        this.stopThreads = stopThreads;
    }

    @Override
    public String name() {
        return stopThreads ? "ptrace" : "helper";
    }

    @Override
    public synchronized boolean recordsLabels() {
        return labels;
    }

    @Override
    public synchronized void start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException {
        String jar = System.getProperty("mixflame.jar");
        Path java = javaExecutable();
        if (jar == null || java == null) {
            throw new EngineUnavailableException("no " + (jar == null ? "mixflame.jar" : "java executable in java.home")
                    + " to start a helper process from");
        }
        SampleSink resolved = target;
        String options = "event=" + settings.event().optionName() + ",interval="
                + Durations.format(settings.intervalNanos()) + (settings.threadRoots() ? ",threads" : "")
                + (settings.lines() ? ",lines" : "") + (stopThreads ? ",engine=ptrace" : "");
        try {
            // -jar, not -cp: the jar's manifest grants JNA native access (JDK 22 on), which only -jar applies.
            // A JVM set up for its job: one small collector, and C1 alone, since C2's compilations of the walk took
            // the service's cores in the helper's first seconds for a walk hardly faster after (BENCHMARKS.md: under
            // Wine 10.5% -> 7.0-7.4% of one core over a 40-s launch, per sample 185 -> 200 us p50).
            List<String> command = new ArrayList<>(List.of(java.toString(), HEAP_LIMIT, "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-jar", jar,
                    HelperCommandLine.COMMAND, HelperCommandLine.PID, Long.toString(OwnPid.get())));
            if (settings.times()) {
                command.add(HelperCommandLine.TIMES);
            }
            if (settings.labels() instanceof LabelRecorder recorder) {
                // The helper reads this JVM's label log from outside, starting at its directory.
                command.add(HelperCommandLine.LABELS);
                command.add(Long.toHexString(recorder.log().directory()));
                resolved = new SetIdResolvingSink(target, recorder.sets());
                labels = true;
            }
            command.add(options);
            ProcessBuilder builder = new ProcessBuilder(command);
            // Options meant for the service (an agent in JAVA_TOOL_OPTIONS) would load the profiler into the
            // helper too, which would start a helper of its own.
            builder.environment().keySet().removeAll(List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"));
            helper = builder.start();
            helperPid = helper.pid();
            if (stopThreads) {
                PtracerGrant.allow(helper.pid());
            }
        } catch (IOException e) {
            throw new EngineUnavailableException("the helper process could not start: " + e.getMessage());
        }
        SampleSink sink = resolved;
        Process launched = helper;
        reader = new Thread(() -> read(launched, sink), "mixflame-helper-reader");
        reader.setDaemon(true);
        reader.start();
        Thread errors = new Thread(this::readErrors, "mixflame-helper-errors");
        errors.setDaemon(true);
        errors.start();
        try {
            boolean answered = started.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            boolean sampling;
            synchronized (notes) {
                // The helper's first note comes once its engine has started; a stream that ended without one is
                // a helper that could not sample.
                sampling = !notes.isEmpty();
            }
            if (!answered || !sampling) {
                helper.destroyForcibly();
                // Its last words, on its error stream, say why.
                errors.join(TimeUnit.SECONDS.toMillis(2));
                throw new EngineUnavailableException("the helper process did not start sampling"
                        + (lastError.isEmpty() ? "" : ": " + lastError));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            helper.destroyForcibly();
            throw new EngineUnavailableException("interrupted while the helper process started");
        }
        LOG.info("sampling from helper process {}", helper.pid());
    }

    private void read(Process process, SampleSink target) {
        try {
            new SampleStreamReader(ProfileAccumulator.DEFAULT_MAX_FRAMES).read(process.getInputStream(), target,
                    this::note, this::module);
        } catch (IOException e) {
            LOG.warn("the helper process's stream ended early: {}", e.getMessage());
            return;
        } finally {
            started.countDown();
        }
        boolean asked;
        synchronized (this) {
            asked = helper != process;
        }
        boolean sampled;
        synchronized (notes) {
            sampled = !notes.isEmpty();
        }
        if (!asked && sampled) {
            // Killed, or crashed: the kernel let go of any thread it held stopped, and the profile keeps what came.
            LOG.warn("the helper process {} ended while sampling ({}); this JVM runs on, no longer sampled",
                    process.pid(), howEnded(process));
        }
    }

    /** How a process that ended did, in words: Java reports a Unix process killed by signal N as 128 + N. */
    private static String howEnded(Process process) {
        try {
            if (!process.waitFor(1, TimeUnit.SECONDS)) {
                return "its output closed";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "its output closed";
        }
        int status = process.exitValue();
        return status > 128 && status < 160 ? "killed by signal " + (status - 128) : "exit status " + status;
    }

    private void module(NativeModule module) {
        synchronized (modules) {
            if (modules.size() < MAX_MODULES) {
                modules.add(module);
            }
        }
    }

    @Override
    public List<NativeModule> modules() {
        synchronized (modules) {
            return List.copyOf(modules);
        }
    }

    /** Whether the helper turned {@code DebugNonSafepoints} on in this JVM (it says so before it samples). */
    boolean turnedOnInlinedFrameDetail() {
        return inlinedFrameDetail;
    }

    private void note(String text) {
        if (text.equals(InlinedFrameDetail.HELPER_NOTE)) {
            inlinedFrameDetail = true;
        }
        synchronized (notes) {
            if (notes.size() < MAX_NOTES) {
                notes.add(text);
            }
        }
        started.countDown();
    }

    private void readErrors() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(helper.getErrorStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String shown = line.length() > 300 ? line.substring(0, 300) + "…" : line;
                lastError = shown;
                LOG.info("helper process: {}", shown);
            }
        } catch (IOException e) {
            // the helper is gone
        }
    }

    /** This JVM's own launcher: the helper must be a JVM that runs here, and this one does. */
    private static Path javaExecutable() {
        Path bin = Path.of(System.getProperty("java.home"), "bin");
        for (String name : new String[] {"java.exe", "java"}) {
            if (Files.isRegularFile(bin.resolve(name))) {
                return bin.resolve(name);
            }
        }
        return null;
    }

    @Override
    public void stop() {
        Process p;
        synchronized (this) {
            p = helper;
            helper = null;
        }
        if (p == null) {
            return;
        }
        // Its peak so far, read while it still runs; what it takes to send its last samples is not counted.
        notePeak(p.pid());
        try {
            p.getOutputStream().close();
            reader.join(TimeUnit.SECONDS.toMillis(STOP_TIMEOUT_SECONDS));
            if (!p.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("the helper process did not stop; ended");
                p.destroyForcibly();
            }
        } catch (IOException e) {
            p.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private void notePeak(long pid) {
        long peak = peakResidentKib(pid);
        if (peak >= 0) {
            helperPeakKib = peak;
        }
    }

    /** A process's peak resident size from {@code /proc} (Linux), in KiB, or -1. */
    private static long peakResidentKib(long pid) {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    @Override
    public List<String> costNotes() {
        List<String> cost = new ArrayList<>();
        long pid = helperPid;
        if (pid >= 0) {
            if (helper != null) {
                notePeak(pid);
            }
            long known = helperPeakKib;
            cost.add("helper process: a JVM of its own (pid " + pid + "; heap at most "
                    + HEAP_LIMIT.substring("-Xmx".length()) + ", the serial collector, C1 alone)"
                    + (known >= 0 ? ", resident at most " + (known + 512) / 1024 + " MiB" : ""));
        }
        synchronized (notes) {
            for (String n : notes) {
                if (!n.startsWith("helper: ")) {
                    cost.add("helper process: " + n);
                }
            }
        }
        return cost;
    }
}
