package io.mixflame.cli;

import io.mixflame.agent.AgentOptions;
import io.mixflame.agent.EngineChoice;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code record}: the target, and the agent's options made of mixflame's long flags, asprof's
 * short ones ({@code -d}, {@code -e}, {@code -i}, {@code -f}, {@code -t}) and one comma-separated OPTIONS word.
 *
 * @param pid     the process to profile
 * @param options what and how to record; the duration is 30 s unless a flag or OPTIONS names one
 */
record RecordArguments(long pid, AgentOptions options) {

    static final String USAGE = String.join("\n",
            "usage: record --pid PID [-d|--duration 30s] -f|--file OUT.html|.collapsed|.folded|.pb.gz|.jfr|.otlp"
                    + " [-e|--event cpu|wall] [-i|--interval 10ms] [-t|--threads] [OPTIONS]",
            "  OPTIONS are the agent's, comma-separated (interval=1ms,include=*Server*,ann); -d -e -i -f -t are"
                    + " asprof's flags");
    /** The usage, and what the command does: what {@code record --help} prints. */
    static final String HELP = String.join("\n", USAGE,
            "  Profiles JVM PID from outside, loading nothing into it: the perf engine (same user, or root), else the",
            "  ptrace engine where perf_events are refused; on Windows the suspend engine. Samples cpu or wall;",
            "  allocation and lock profiles and pushes (otlp=, pyroscope=) are the agent's and are refused here.",
            "  -d 30s (or 30)   how long (default 30s); it stops early, writing what it has, when PID exits or on Ctrl-C",
            "  -f OUT           where to write; the format by the extension, or by an output word in OPTIONS",
            "  -e cpu|wall, -i 10ms, -t   the event, the interval, a root frame per thread",
            "  It samples from a second JVM started with C1 alone and the serial collector",
            "  (-Dmixflame.relaunch=false: from this one). docs/formats.md says more.");
    private static final String DEFAULT_DURATION = "duration=30s";

    /**
     * Reads the arguments after {@code record}.
     *
     * @throws IllegalArgumentException with a one-line message for anything missing, unknown or malformed
     */
    static RecordArguments parse(List<String> args) {
        long pid = -1;
        String file = null;
        List<String> options = new ArrayList<>();
        String word = null;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            switch (arg) {
                case "--pid" -> pid = pid(value(args, ++i, arg));
                case "-d", "--duration" -> options.add("duration=" + value(args, ++i, arg));
                case "-f", "--file" -> file = value(args, ++i, arg);
                case "-e", "--event" -> options.add("event=" + value(args, ++i, arg));
                case "-i", "--interval" -> options.add("interval=" + value(args, ++i, arg));
                case "-t", "--threads" -> options.add("threads");
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option '" + arg + "'");
                    }
                    if (word != null) {
                        throw new IllegalArgumentException("OPTIONS are one comma-separated word, not '" + word
                                + "' and '" + arg + "'");
                    }
                    word = arg;
                }
            }
        }
        if (pid <= 0) {
            throw new IllegalArgumentException("--pid PID is missing");
        }
        if (file == null) {
            throw new IllegalArgumentException("-f/--file OUT is missing");
        }
        options.add(0, "file=" + file);
        if (word != null) {
            options.add(word);
        }
        String text = "start," + String.join(",", options);
        AgentOptions parsed = AgentOptions.parseWithFile(text);
        if (parsed.event() == null || parsed.events().size() > 1) {
            // Allocation and lock profiles are streamed from JFR inside the JVM; there is no way in from outside.
            throw new IllegalArgumentException("record --pid samples cpu or wall from outside the JVM and cannot "
                    + "profile alloc or lock; for those, load the agent (-javaagent, attach or launch)");
        }
        if (parsed.engine() == EngineChoice.TIMER) {
            // The timers are taken in the target's own threads, by a signal handler the agent installs there.
            throw new IllegalArgumentException("record --pid samples from outside the JVM and cannot take CPU timers "
                    + "in its threads (engine=timer, event=ctimer or itimer); use -e cpu, or load the agent (attach "
                    + "PID start,event=ctimer)");
        }
        if (parsed.push().pushes()) {
            throw new IllegalArgumentException("record --pid writes one file and pushes nothing; otlp= and pyroscope="
                    + " are the agent's (load it with -javaagent, attach or launch)");
        }
        // A duration from the flags or OPTIONS (duration= or timeout=) wins over the default.
        return new RecordArguments(pid, parsed.durationNanos() > 0 ? parsed
                : AgentOptions.parseWithFile(text + "," + DEFAULT_DURATION));
    }

    private static long pid(String text) {
        try {
            long pid = Long.parseLong(text);
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--pid needs a process id, not '" + text + "'");
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }
}
