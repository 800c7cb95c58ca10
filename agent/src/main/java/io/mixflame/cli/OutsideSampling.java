package io.mixflame.cli;

import io.mixflame.agent.AgentOptions;
import io.mixflame.agent.EngineChoice;
import io.mixflame.capture.labels.LabelSource;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.external.ExternalEngines;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.profile.ProfileAccumulator;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Another process sampled from outside, as {@code record} and {@code helper} start it: the process, the engine of
 * this system for it (started), and the profile it feeds.
 *
 * @param target  the process
 * @param engine  the engine, sampling
 * @param profile where its samples go
 */
record OutsideSampling(ProcessHandle target, SamplingEngine engine, ProfileAccumulator profile) {

    /** Why sampling did not start, and the exit status that says so. */
    static final class NotStarted extends Exception {
        final int status;

        NotStarted(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /**
     * Starts sampling process {@code pid} with {@code options}' event, interval and thread roots.
     *
     * @param command the command's name, for messages
     * @param err     where the profile's overflow is reported
     * @throws NotStarted with a one-line message and status 2 (no such process) or 1 (it cannot be profiled)
     */
    static OutsideSampling start(String command, long pid, AgentOptions options, PrintStream err) throws NotStarted {
        return start(command, pid, options, null, err);
    }

    /**
     * Starts sampling as {@link #start(String, long, AgentOptions, PrintStream)} does, with the samples labelled from
     * {@code labels} (the sampled JVM's label log), or not when null.
     */
    static OutsideSampling start(String command, long pid, AgentOptions options,
                                 LabelSource labels, PrintStream err) throws NotStarted {
        ProcessHandle target = ProcessHandle.of(pid).orElse(null);
        if (target == null) {
            throw new NotStarted(2, "mixflame " + command + ": no process " + pid);
        }
        ProfileAccumulator profile = new ProfileAccumulator(ProfileAccumulator.DEFAULT_MAX_STACKS,
                ProfileAccumulator.DEFAULT_MAX_FRAMES, err::println);
        if (options.recordsTimes()) {
            profile.recordTimes();
        }
        EngineChoice choice = options.engine();
        try {
            SamplingEngine engine = ExternalEngines.forProcess(pid, choice == EngineChoice.PTRACE);
            try {
                engine.start(options.samplingSettings(labels), profile);
            } catch (EngineUnavailableException refused) {
                if (choice != EngineChoice.AUTO || !engine.name().equals("perf")) {
                    throw refused;
                }
                // Where perf events are refused (a container's seccomp profile, perf_event_paranoid 3 or 4), the
                // threads can still be stopped one at a time from outside.
                engine = ExternalEngines.forProcess(pid, true);
                try {
                    engine.start(options.samplingSettings(labels), profile);
                } catch (EngineUnavailableException alsoRefused) {
                    throw new EngineUnavailableException("perf engine refused (" + refused.getMessage()
                            + "); ptrace engine refused (" + alsoRefused.getMessage() + ")");
                }
                err.println("mixflame " + command + ": perf engine refused (" + refused.getMessage()
                        + "); sampling with the ptrace engine");
            }
            return new OutsideSampling(target, engine, profile);
        } catch (IOException | EngineUnavailableException e) {
            throw new NotStarted(1, "mixflame " + command + ": cannot profile " + pid + ": " + e.getMessage());
        }
    }
}
