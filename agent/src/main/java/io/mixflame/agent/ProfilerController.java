package io.mixflame.agent;

import io.mixflame.agent.http.ProfileHttpServer;
import io.mixflame.agent.push.ProfilePusher;
import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.profile.Counts;
import io.mixflame.profile.Durations;
import io.mixflame.profile.Profile;
import java.io.IOException;
import io.mixflame.report.ProfileFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profiler's state in this JVM: at most one session, and the commands that start, stop, dump and describe
 * it. Commands arrive from {@code premain}, from each attach, from the duration timer and from the shutdown
 * hook; they are serialized here.
 */
public final class ProfilerController {
    private static final Logger LOG = LoggerFactory.getLogger(ProfilerController.class);
    private static final ProfilerController INSTANCE = new ProfilerController();
    private static final long EXIT_STOP_MILLIS = 2_500;

    private ProfilingSession session;
    private ProfileOutput output;
    private ScheduledFuture<?> timer;
    private ScheduledExecutorService scheduler;
    private boolean hookInstalled;
    private ProfileHttpServer http;
    /** Pushes each period of the session where its options say; null when they say nothing. */
    private ProfilePusher pusher;

    /** The one controller of this JVM. */
    public static ProfilerController instance() {
        return INSTANCE;
    }

    /** Runs one command; never throws. */
    public synchronized CommandResult execute(AgentOptions options) {
        try {
            return switch (options.action()) {
                case START -> start(options);
                case STOP -> stop();
                case DUMP -> dump(options);
                case STATUS -> status();
                case LOAD -> CommandResult.ok("loaded; not profiling until asked (Mixflame.execute, attach)");
            };
        } catch (RuntimeException e) {
            LOG.error("{} failed", options.action().name().toLowerCase(), e);
            return CommandResult.error(options.action().name().toLowerCase() + " failed: " + e);
        }
    }

    private CommandResult start(AgentOptions options) {
        if (session != null) {
            return CommandResult.error("already profiling with the " + session.engineName()
                    + " engine; stop first");
        }
        try {
            session = ProfilingSession.start(options);
        } catch (EngineUnavailableException e) {
            LOG.error("profiling did not start: {}", e.getMessage());
            return CommandResult.error("profiling did not start: " + e.getMessage());
        }
        output = new ProfileOutput(options, Path.of(System.getProperty("java.io.tmpdir")));
        if (options.push().pushes()) {
            // No thread and no connection yet: the first period starts them.
            pusher = new ProfilePusher(options.push(), options.reportOptions());
            session.notePushes(pusher.counters());
        }
        installShutdownHook();
        if (options.http() != null) {
            try {
                http = ProfileHttpServer.start(options.http(), session);
            } catch (IOException e) {
                LOG.error("profiles cannot be served on {}: {}", options.http(), e.getMessage());
            }
        }
        ProfilingSession started = session;
        if (options.loopNanos() > 0) {
            long first = options.loopAtSecond() >= 0 ? ClockTimes.nanosUntil(options.loopAtSecond())
                    : options.loopNanos();
            timer = scheduler().scheduleAtFixedRate(() -> endPeriod(started), first, options.loopNanos(),
                    TimeUnit.NANOSECONDS);
        } else if (options.durationNanos() > 0 || options.stopAtSecond() >= 0) {
            long after = options.stopAtSecond() >= 0 ? ClockTimes.nanosUntil(options.stopAtSecond())
                    : options.durationNanos();
            timer = scheduler().schedule(() -> stopIfCurrent(started), after, TimeUnit.NANOSECONDS);
        }
        if (!options.ignored().isEmpty()) {
            LOG.info("ignored async-profiler's {} (not implemented by mixflame; docs/options.md says why)",
                    String.join(", ", options.ignored()));
        }
        String message = "profiling " + session.eventsDescription() + " with the " + session.engineName() + " engine";
        if (pusher != null) {
            message = message + ", each " + Durations.format(options.loopNanos()) + " pushed to "
                    + options.push().describe();
        }
        LOG.info(message);
        String problem = options.writesFiles() ? output.problemWithTarget() : null;
        if (problem != null) {
            // Said now, not after an hour of profiling; the run goes on and the profile is not lost.
            String warning = "file=" + options.file() + ": " + problem + "; unless it appears, profiles go to "
                    + System.getProperty("java.io.tmpdir");
            LOG.warn(warning);
            message = message + "; but " + warning;
        }
        return CommandResult.ok(message);
    }

    private CommandResult stop() {
        if (session == null) {
            return CommandResult.error("not profiling");
        }
        ProfilingSession ending = session;
        session = null;
        if (http != null) {
            http.close();
            http = null;
        }
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        ending.stop();
        List<Profile> profiles = ending.options().loopNanos() > 0 ? ending.endPeriod() : ending.snapshot();
        return last(ending.options(), profiles, "stopped");
    }

    /**
     * The session's last profiles, written where it writes files and pushed where it pushes: the push waits a bounded
     * moment ({@link ProfilePusher#EXIT_WAIT_MILLIS}), since this may be the JVM's exit.
     */
    private CommandResult last(AgentOptions options, List<Profile> profiles, String verb) {
        CommandResult written = options.writesFiles() ? write(profiles, null, verb) : null;
        ProfilePusher ending = pusher;
        pusher = null;
        if (ending == null) {
            return written != null ? written : CommandResult.ok(verb);
        }
        boolean pushed = ending.finish(profiles);
        long samples = 0;
        for (Profile p : profiles) {
            samples = Counts.add(samples, p.totalSamples());
        }
        String message = samples + " samples " + (pushed ? "pushed to " : "not all pushed within "
                + ProfilePusher.EXIT_WAIT_MILLIS + " ms to ") + options.push().describe();
        LOG.info("{}: {}", verb, message);
        if (written != null) {
            return new CommandResult(written.ok(), written.message() + "; " + message);
        }
        return CommandResult.ok(verb + ": " + message);
    }

    private CommandResult dump(AgentOptions options) {
        if (session == null) {
            return CommandResult.error("not profiling");
        }
        // A dump without file= goes where the session writes; with one, where it says.
        String template = AgentOptions.DEFAULT_FILE.equals(options.file()) ? null : options.file();
        return write(session.snapshot(), template, "dumped");
    }

    /** Writes the profiles, one per event, to the session's files or to those {@code template} names. */
    private CommandResult write(List<Profile> profiles, String template, String verb) {
        try {
            List<ProfileOutput.Written> written = template == null ? output.write(profiles)
                    : output.dump(profiles, template);
            StringBuilder message = new StringBuilder(verb).append(": ");
            boolean problems = false;
            for (int i = 0; i < written.size(); i++) {
                ProfileOutput.Written w = written.get(i);
                message.append(i == 0 ? "" : "; ").append(w.samples())
                        .append(profiles.size() > 1 ? " " + ProfileFiles.eventsName(w.profiles()) : "")
                        .append(" samples written to ").append(w.path().toAbsolutePath())
                        .append(w.problem() == null ? "" : " (" + w.problem() + ")");
                problems |= w.problem() != null;
            }
            if (problems) {
                LOG.warn(message.toString());
            } else {
                LOG.info(message.toString());
            }
            for (String note : profiles.get(0).info().notes()) {
                LOG.info("profiler cost: {}", note);
            }
            return CommandResult.ok(message.toString());
        } catch (IOException | RuntimeException e) {
            String message = verb + ", but the profile could not be written: " + e.getMessage();
            LOG.error(message);
            return CommandResult.error(message);
        }
    }

    private CommandResult status() {
        if (session == null) {
            return CommandResult.ok("not profiling");
        }
        long seconds = (System.currentTimeMillis() - session.startedMillis()) / 1000;
        String cost = String.join("; ", session.costNotes());
        AgentOptions options = session.options();
        return CommandResult.ok("profiling " + String.join(",", options.events()) + " with the "
                + session.engineName() + " engine for " + seconds + " s, " + session.samples() + " samples"
                + (options.writesFiles() ? ", file=" + options.file() : "")
                + (options.push().pushes() ? ", pushing to " + options.push().describe() : "")
                + (cost.isEmpty() ? "" : " (" + cost + ")"));
    }

    private synchronized void endPeriod(ProfilingSession expected) {
        if (session == expected) {
            List<Profile> profiles = expected.endPeriod();
            if (expected.options().writesFiles()) {
                write(profiles, null, "period ended");
            }
            if (pusher != null) {
                // Handed over only: encoding and sending happen on the push thread, never on this timer.
                pusher.offer(profiles);
            }
        }
    }

    private synchronized void stopIfCurrent(ProfilingSession expected) {
        if (session == expected) {
            stop();
        }
    }

    private ScheduledExecutorService scheduler() {
        if (scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "mixflame-timer");
                t.setDaemon(true);
                return t;
            });
        }
        return scheduler;
    }

    private void installShutdownHook() {
        if (hookInstalled) {
            return;
        }
        hookInstalled = true;
        // Anonymous classes here and below, not method references: those are classes the JVM spins at start-up.
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                writeAtExit();
            }
        }, "mixflame-exit"));
    }

    /**
     * At exit the profile in progress is written. Stopping the engine may wait on JFR, which shuts down
     * beside us, so the stop gets a bounded time and the profile is written with what has arrived.
     */
    private void writeAtExit() {
        ProfilingSession ending;
        synchronized (this) {
            ending = session;
        }
        if (ending == null) {
            return;
        }
        Thread stopper = new Thread(new Runnable() {
            @Override
            public void run() {
                ending.stop();
            }
        }, "mixflame-exit-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(EXIT_STOP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (session == ending) {
                session = null;
                List<Profile> profiles = ending.options().loopNanos() > 0 ? ending.endPeriod() : ending.snapshot();
                last(ending.options(), profiles, "written at exit");
            }
        }
    }
}
