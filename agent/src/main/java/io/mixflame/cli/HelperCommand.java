package io.mixflame.cli;

import io.mixflame.agent.AgentOptions;
import io.mixflame.agent.HelperCommandLine;
import io.mixflame.agent.InlinedFrameDetail;
import io.mixflame.capture.labels.LabelSource;
import io.mixflame.capture.labels.RemoteLabelSource;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.SampleStreamWriter;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code helper --pid PID [--times] [--labels ADDRESS] OPTIONS}: the helper process of the helper engine, started by a profiled JVM to sample it
 * from outside (on Windows a JVM's own threads must not stop each other). Samples with the engine {@code record}
 * uses and streams what it has once a second on standard output ({@link SampleStreamWriter}), with each sample's
 * time when {@code --times} is given; stops, sending the
 * rest and its cost notes, when its standard input ends (the JVM closed it, or died) or the process exits. Not meant
 * to be typed by hand.
 */
final class HelperCommand {
    static final String USAGE = "usage: " + HelperCommandLine.COMMAND + " " + HelperCommandLine.PID + " PID ["
            + HelperCommandLine.TIMES + "] [" + HelperCommandLine.LABELS + " ADDRESS] OPTIONS";
    private static final long PERIOD_NANOS = 1_000_000_000L;

    private HelperCommand() {
    }

    static int run(List<String> args, PrintStream err) {
        boolean times = false;
        LabelSource labels = null;
        long pid;
        AgentOptions options;
        try {
            if (args.size() < 3 || !args.get(0).equals(HelperCommandLine.PID)) {
                err.println(USAGE);
                return 2;
            }
            pid = Long.parseLong(args.get(1));
            for (int i = 2; i < args.size() - 1; i++) {
                if (args.get(i).equals(HelperCommandLine.TIMES)) {
                    times = true;
                } else if (args.get(i).equals(HelperCommandLine.LABELS) && i + 1 < args.size() - 1) {
                    labels = new RemoteLabelSource(Long.parseUnsignedLong(args.get(++i), 16));
                } else {
                    err.println(USAGE);
                    return 2;
                }
            }
            options = AgentOptions.parse(args.get(args.size() - 1));
            if (options.event() == null) {
                throw new IllegalArgumentException("the helper samples cpu or wall only");
            }
        } catch (IllegalArgumentException e) {
            err.println("mixflame helper: " + e.getMessage());
            return 2;
        }
        OutsideSampling sampling;
        try {
            sampling = OutsideSampling.start(HelperCommandLine.COMMAND, pid, options, labels, err);
        } catch (OutsideSampling.NotStarted e) {
            err.println(e.getMessage());
            return e.status;
        }
        ProcessHandle target = sampling.target();
        SamplingEngine engine = sampling.engine();
        ProfileAccumulator profile = sampling.profile();
        if (times) {
            profile.recordTimes();
        }
        // Standard output in UTF-8 whatever the console's code page: the reader decodes UTF-8.
        Writer raw = new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8);
        SampleStreamWriter out = new SampleStreamWriter(raw, ProfileAccumulator.DEFAULT_MAX_FRAMES);
        Thread watcher = watchInput(System.in);
        ProfileInfo info = new ProfileInfo(engine.name(), options.event().optionName(), options.intervalNanos(), 0, 0,
                List.of());
        try {
            if (InlinedFrameDetail.turnOnFrom(pid)) {
                out.note(InlinedFrameDetail.HELPER_NOTE);
            }
            out.note("helper: sampling process " + pid + " with the " + engine.name() + " engine");
            while (watcher.isAlive() && target.isAlive()) {
                watcher.join(TimeUnit.NANOSECONDS.toMillis(PERIOD_NANOS));
                out.modules(engine.modules());
                out.write(profile.snapshotAndReset(info));
            }
            engine.stop();
            out.modules(engine.modules());
            out.write(profile.snapshotAndReset(info));
            for (String note : engine.costNotes()) {
                out.note(note);
            }
            return 0;
        } catch (IOException e) {
            // The JVM stopped reading: it is gone, and so is the point of sampling it.
            engine.stop();
            return 1;
        } catch (InterruptedException e) {
            engine.stop();
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** A thread that ends when {@code in} does. */
    private static Thread watchInput(InputStream in) {
        Thread t = new Thread(() -> {
            byte[] sink = new byte[256];
            try {
                while (in.read(sink) >= 0) {
                    // the profiled JVM sends nothing; its closing the pipe is the message
                }
            } catch (IOException e) {
                // a broken pipe ends the input as well
            }
        }, "mixflame-helper-input");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
