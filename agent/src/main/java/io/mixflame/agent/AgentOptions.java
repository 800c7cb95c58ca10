package io.mixflame.agent;

import io.mixflame.agent.http.HttpAddress;
import io.mixflame.agent.labels.LabelOption;
import io.mixflame.agent.labels.TraceOption;
import io.mixflame.agent.log.LogLevel;
import io.mixflame.agent.push.PushAddress;
import io.mixflame.agent.push.PushHeaders;
import io.mixflame.agent.push.PushOptions;
import io.mixflame.agent.push.PushTags;
import io.mixflame.capture.labels.LabelSource;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.jfr.JdkEventSettings;
import io.mixflame.engine.wall.ThreadState;
import io.mixflame.platform.host.TargetProcesses;
import io.mixflame.profile.Durations;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.FrameFilter;
import io.mixflame.report.FrameStyle;
import io.mixflame.report.NamePattern;
import io.mixflame.report.OutputFormat;
import io.mixflame.report.ReportOptions;
import io.mixflame.report.TextSummary;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The agent's options, in async-profiler's comma-separated syntax:
 * {@code start,event=cpu,interval=10ms,file=profile.html}. async-profiler's spellings {@code timeout=} (for
 * {@code duration=}) and {@code loglevel=} (for {@code log=}) are accepted too; {@code include=} and
 * {@code exclude=} may be repeated.
 *
 * <p>Each period of a loop may be pushed to fleet backends ({@link PushOptions}): {@code otlp=URL} (an OpenTelemetry
 * collector, such as {@code http://collector:4318}) and {@code pyroscope=URL} (Grafana Pyroscope), the service named
 * by {@code service=NAME} (else by the JVM's command line) and labelled by {@code tags=k=v;k2=v2}, authenticated by
 * {@code authtoken=TOKEN} (a bearer token) or {@code authuser=USER} and {@code authpassword=PASSWORD} (basic auth),
 * each of which may come from the environment instead ({@code MIXFLAME_AUTH_TOKEN}, {@code MIXFLAME_AUTH_USER},
 * {@code MIXFLAME_AUTH_PASSWORD}). With a push target, {@code loop=} defaults to {@value #DEFAULT_PUSH_LOOP_SECONDS}
 * s, and files are written only where {@code file=} is given.
 *
 * @param action        what to do; {@link AgentAction#START} when none is named
 * @param event         what to sample: cpu or wall, or null when only allocations or locks are profiled
 * @param intervalNanos sampling period
 * @param durationNanos stop after this long; 0 to run until stopped
 * @param file          where to write, before {@code %p} and {@code %t} are expanded
 * @param threads       one root frame per thread
 * @param filter        which stacks to keep, by frame name ({@code include=}, {@code exclude=})
 * @param loopNanos     write a new profile every period; 0 for one profile
 * @param keep          how many profiles of a loop to keep on disk
 * @param engine        which engine to use
 * @param logLevel      the profiler's log threshold, or null to leave it
 * @param title         title of HTML output, or null for the default
 * @param reply         file the result of an attach command is written to, or null
 * @param http          where to serve profiles over HTTP, or null
 * @param states        for wall-clock profiles: the thread states whose samples are kept
 * @param style         how frames are spelled in text outputs ({@code ann}, {@code sig}, {@code lib}, {@code lines})
 * @param cacheDir      where module indexes are shared between JVMs ({@code cachedir=}), {@link #CACHE_OFF} for
 *                      none, or null for the default
 * @param allocBytes    allocation profiling ({@code event=alloc}, {@code alloc=SIZE}): the sampling interval in bytes,
 *                      0 for JFR's own rate, {@link JdkEventSettings#OFF} when off
 * @param lockNanos     lock profiling ({@code event=lock}, {@code lock=DURATION}): the shortest wait recorded,
 *                      {@link JdkEventSettings#OFF} when off
 * @param total         {@code total}: collapsed and HTML allocation and lock profiles count bytes and nanoseconds
 *                      rather than samples
 * @param labels        which labels samples carry ({@code labels}, {@code labels=http}, {@code labels=api})
 * @param push          where each period is pushed ({@code otlp=}, {@code pyroscope=}), who the profiles are of
 *                      ({@code service=}, {@code tags=}, which {@code .otlp} files carry too) and the credentials
 *                      ({@code authtoken=}, {@code authuser=}, {@code authpassword=}), masked in {@code toString()}
 * @param writesFiles   whether profiles are written to files: unless they are pushed and no {@code file=} is given
 * @param output        async-profiler's output words ({@code collapsed}, {@code flamegraph}, {@code traces=N}, …):
 *                      the format they name whatever the file's name, or none
 * @param loopAtSecond  {@code loop=hh:mm:ss}: the second of the day each period ends at (a period is then a day), or
 *                      -1 for a period's length
 * @param stopAtSecond  {@code duration=hh:mm:ss}: the second of the day profiling stops at, or -1
 * @param ignored       async-profiler's options given that mixflame does not implement, each said once in the log
 * @param traces        whether samples carry the OpenTelemetry span current on their thread ({@code traces},
 *                      {@code traces=root}, {@code traces=all})
 * @param spanFrames    {@code spans=root}: collapsed and HTML outputs show each sample's local root span as a
 *                      {@code [span=NAME]} frame under its thread (without it they leave spans out)
 */
public record AgentOptions(AgentAction action, ProfilingEvent event, long intervalNanos, long durationNanos,
                           String file, boolean threads, FrameFilter filter, long loopNanos, int keep,
                           EngineChoice engine, String logLevel, String title, String reply,
                           HttpAddress http,
                           EnumSet<ThreadState> states, FrameStyle style,
                           String cacheDir, long allocBytes, long lockNanos, boolean total,
                           LabelOption labels, PushOptions push, boolean writesFiles, OutputChoice output,
                           int loopAtSecond, int stopAtSecond, List<String> ignored, TraceOption traces,
                           boolean spanFrames) {

    /** Default output file: the format follows from the extension. */
    public static final String DEFAULT_FILE = "mixflame-%p-%t.html";
    /** Default number of loop profiles kept on disk. */
    public static final int DEFAULT_KEEP = 10;
    /** {@code cachedir=off}: every JVM reads its modules' symbols itself, as before module indexes. */
    public static final String CACHE_OFF = "off";
    static final long DEFAULT_CPU_INTERVAL = 10_000_000L;
    static final long DEFAULT_WALL_INTERVAL = 20_000_000L;
    /** async-profiler's default lock threshold. */
    static final long DEFAULT_LOCK_NANOS = 10_000L;
    /** The loop period when profiles are pushed and {@code loop=} is not given. */
    public static final int DEFAULT_PUSH_LOOP_SECONDS = 60;
    /** A sampling interval in bytes above this is a typo (a terabyte would never sample). */
    private static final long MAX_ALLOC_BYTES = 1L << 40;
    private static final long MIN_INTERVAL = 100_000L;
    /** Sparser than this says next to nothing in a run of minutes; a bound also keeps a typo from meaning "never". */
    private static final long MAX_INTERVAL = 10_000_000_000L;
    private static final long MIN_LOOP = 1_000_000_000L;
    private static final int MAX_TEXT = 4096;
    private static final long SECOND = 1_000_000_000L;
    /** As in async-profiler: each {@code include=} or {@code exclude=} adds a pattern. */
    private static final Set<String> REPEATABLE = Set.of("include", "exclude", "header");
    private static final long DAY_SECONDS = 86_400;
    /**
     * async-profiler's options that mixflame does not implement: given, each is said once in the log as ignored, and
     * profiling starts (docs/options.md says why for each).
     */
    static final Set<String> ASYNC_PROFILER_IGNORED = Set.of("cstack", "jstackdepth", "alluser", "allkernel",
            "filter", "safemode", "features", "chunksize", "chunktime", "jfrsync", "jfropts", "sched", "begin", "end",
            "ttsp", "nobatch", "fdtransfer", "clock", "signal", "live", "minwidth", "simple", "dot", "norm", "server",
            "quiet", "nostop", "proc", "target-cpu", "record-cpu", "nativemem", "wall", "mcache", "inverted",
            "lightweight", "trace", "nofree");

    /**
     * Parses an option string; null or empty means {@code start} with every default.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option
     */
    public static AgentOptions parse(String text) {
        if (text != null && text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("options longer than " + MAX_TEXT + " characters");
        }
        AgentAction action = null;
        ProfilingEvent event = null;
        long allocBytes = JdkEventSettings.OFF;
        long lockNanos = JdkEventSettings.OFF;
        boolean total = false;
        Long interval = null;
        long duration = 0;
        String file = DEFAULT_FILE;
        boolean fileGiven = false;
        PushAddress otlp = null;
        PushAddress pyroscope = null;
        String service = null;
        Map<String, String> tags = Map.of();
        String authToken = null;
        String authUser = null;
        String authPassword = null;
        List<String> headers = new ArrayList<>();
        String tenant = null;
        boolean threads = false;
        List<NamePattern> include = new ArrayList<>();
        List<NamePattern> exclude = new ArrayList<>();
        boolean annotate = false;
        boolean signatures = false;
        boolean libraries = false;
        boolean lines = false;
        long loop = 0;
        int keep = DEFAULT_KEEP;
        EngineChoice engine = EngineChoice.AUTO;
        boolean engineGiven = false;
        boolean cpuTimer = false;
        String log = null;
        String title = null;
        String reply = null;
        String cacheDir = null;
        LabelOption labels = LabelOption.OFF;
        HttpAddress http = null;
        EnumSet<ThreadState> states = EnumSet.allOf(ThreadState.class);
        OutputFormat word = null;
        String wordKey = null;
        boolean summary = false;
        long traces = 0;
        TraceOption traceSpans = TraceOption.OFF;
        boolean spanFrames = false;
        long flat = 0;
        boolean reverse = false;
        int loopAt = -1;
        int stopAt = -1;
        List<String> ignored = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String token : text == null ? new String[0] : text.split(",")) {
            String t = token.trim();
            if (t.isEmpty()) {
                continue;
            }
            int eq = t.indexOf('=');
            String key = eq < 0 ? t : t.substring(0, eq);
            String value = eq < 0 ? null : t.substring(eq + 1);
            if (!REPEATABLE.contains(key) && !seen.add(canonical(key))) {
                throw new IllegalArgumentException("option '" + key + "' given twice"
                        + (canonical(key).equals(key) ? "" : " (as " + canonical(key) + " or " + key + ")"));
            }
            switch (key) {
                case "start", "stop", "dump", "status", "load" -> {
                    flag(key, value);
                    if (action != null) {
                        throw new IllegalArgumentException("options name two actions: " + action.name().toLowerCase()
                                + " and " + key);
                    }
                    action = AgentAction.valueOf(key.toUpperCase(Locale.ROOT));
                }
                case "event" -> {
                    // async-profiler's events of the JDK's own: event=alloc and event=lock are alloc and lock.
                    switch (required(key, value)) {
                        case "alloc" -> allocBytes = Math.max(allocBytes, 0);
                        case "lock" -> lockNanos = lockNanos == JdkEventSettings.OFF ? DEFAULT_LOCK_NANOS : lockNanos;
                        case "cpu", "wall" -> event = ProfilingEvent.parse(value);
                        // perf's name of the software clock async-profiler's cpu event samples.
                        case "cpu-clock" -> event = ProfilingEvent.CPU;
                        // async-profiler's CPU timers: CPU time sampled in each thread's signal handler.
                        case "ctimer", "itimer" -> {
                            event = ProfilingEvent.CPU;
                            cpuTimer = true;
                        }
                        default -> throw new IllegalArgumentException("unknown event '" + value
                                + "' (expected cpu, wall, alloc, lock, ctimer or itimer)");
                    }
                }
                case "alloc" -> allocBytes = value == null ? Math.max(allocBytes, 0)
                        : bytes(key, value);
                case "lock" -> lockNanos = value == null
                        ? (lockNanos == JdkEventSettings.OFF ? DEFAULT_LOCK_NANOS : lockNanos)
                        : duration(key, value, 0, MAX_INTERVAL, 1L);
                case "total" -> {
                    flag(key, value);
                    total = true;
                }
                case "interval" -> interval = duration(key, value, MIN_INTERVAL, MAX_INTERVAL, 1L);
                case "duration", "timeout" -> {
                    stopAt = clockTime(key, value);
                    duration = stopAt >= 0 ? 0 : duration(key, value, 1, Long.MAX_VALUE, SECOND);
                }
                case "file" -> {
                    file = required(key, value);
                    fileGiven = true;
                }
                // A bare otlp is async-profiler's output word; with a URL, a push.
                case "otlp" -> {
                    if (value == null) {
                        word = outputWord(word, wordKey, key, OutputFormat.OTLP);
                        wordKey = key;
                    } else {
                        otlp = PushAddress.parse(key, required(key, value));
                    }
                }
                case "collapsed", "flamegraph", "tree", "jfr" -> {
                    flag(key, value);
                    word = outputWord(word, wordKey, key, key.equals("collapsed") ? OutputFormat.COLLAPSED
                            : key.equals("jfr") ? OutputFormat.JFR : OutputFormat.HTML);
                    wordKey = key;
                }
                case "traces" -> {
                    TraceOption asked = TraceOption.parse(value);
                    if (asked != null) {
                        traceSpans = asked;
                    } else {
                        // async-profiler's traces=N: the text output's heaviest stacks.
                        word = outputWord(word, wordKey, key, OutputFormat.TEXT);
                        wordKey = key;
                        traces = positiveInt(key, value);
                    }
                }
                case "spans" -> spanFrames = spans(value);
                case "summary", "flat" -> {
                    word = outputWord(word, wordKey, key, OutputFormat.TEXT);
                    wordKey = key;
                    if (key.equals("summary")) {
                        flag(key, value);
                        summary = true;
                    } else {
                        flat = value == null ? Long.MAX_VALUE : positiveInt(key, value);
                    }
                }
                case "reverse" -> {
                    flag(key, value);
                    reverse = true;
                }
                // async-profiler's default counter, the opposite of total.
                case "samples" -> flag(key, value);
                case "pyroscope" -> pyroscope = PushAddress.parse(key, required(key, value));
                case "service" -> service = required(key, value);
                case "tags" -> tags = PushTags.parse(required(key, value));
                case "authtoken" -> authToken = required(key, value);
                case "authuser" -> authUser = required(key, value);
                case "authpassword" -> authPassword = required(key, value);
                case "header" -> headers.add(required(key, value));
                case "tenant" -> tenant = required(key, value);
                case "threads" -> {
                    flag(key, value);
                    threads = true;
                }
                case "include" -> include.add(pattern(key, value));
                case "exclude" -> exclude.add(pattern(key, value));
                case "ann" -> {
                    flag(key, value);
                    annotate = true;
                }
                case "sig" -> {
                    flag(key, value);
                    signatures = true;
                }
                case "lib" -> {
                    flag(key, value);
                    libraries = true;
                }
                case "lines" -> {
                    flag(key, value);
                    lines = true;
                }
                case "loop" -> {
                    loopAt = clockTime(key, value);
                    loop = loopAt >= 0 ? DAY_SECONDS * SECOND
                            : duration(key, value, MIN_LOOP, Long.MAX_VALUE, SECOND);
                }
                case "keep" -> keep = positiveInt(key, value);
                case "engine" -> {
                    engine = EngineChoice.parse(required(key, value));
                    engineGiven = true;
                }
                case "log", "loglevel" -> {
                    log = required(key, value);
                    LogLevel.parse(log);
                }
                case "title" -> title = required(key, value);
                case "reply" -> reply = required(key, value);
                case "cachedir" -> cacheDir = cacheDirectory(required(key, value));
                case "http" -> http = HttpAddress.parse(required(key, value));
                case "state" -> states = ThreadState.parseSet(required(key, value));
                case "labels" -> labels = LabelOption.parse(value);
                default -> {
                    if (!ASYNC_PROFILER_IGNORED.contains(key)) {
                        throw new IllegalArgumentException("unknown option '" + key + "'");
                    }
                    ignored.add(key);
                }
            }
        }
        if (seen.contains("samples") && total) {
            throw new IllegalArgumentException("options name two counters: samples and total");
        }
        if (word != null && !fileGiven) {
            file = DEFAULT_FILE.substring(0, DEFAULT_FILE.lastIndexOf('.')) + OutputChoice.extensionOf(word);
        }
        try {
            OutputPath.check(file);
            if (word == null) {
                OutputFormat.fromPath(file);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("file=" + file + ": " + e.getMessage());
        }
        OutputChoice output = word == null && !reverse ? OutputChoice.BY_NAME : new OutputChoice(word,
                word == OutputFormat.TEXT ? new TextSummary(summary, traces, flat) : TextSummary.DEFAULT, reverse);
        PushOptions push = PushOptions.of(otlp, pyroscope, service, tags, authToken, authUser, authPassword,
                PushHeaders.of(headers, tenant), System.getenv());
        if (push.pushes() && loop == 0) {
            loop = DEFAULT_PUSH_LOOP_SECONDS * SECOND;
        }
        if (event == null && allocBytes == JdkEventSettings.OFF && lockNanos == JdkEventSettings.OFF) {
            event = ProfilingEvent.CPU;
        }
        long intervalNanos = interval != null ? interval
                : event == ProfilingEvent.WALL ? DEFAULT_WALL_INTERVAL : DEFAULT_CPU_INTERVAL;
        if (cpuTimer && !engineGiven && !TargetProcesses.onWindows()) {
            engine = EngineChoice.TIMER;
        }
        return new AgentOptions(action == null ? AgentAction.START : action, event, intervalNanos, duration, file,
                threads, new FrameFilter(include, exclude), loop, keep, engine, log, title, reply, http, states,
                new FrameStyle(annotate, signatures, libraries, lines), cacheDir, allocBytes, lockNanos, total,
                labels, push, fileGiven || !push.pushes(), output, loopAt, stopAt, List.copyOf(ignored),
                spanFrames && traceSpans == TraceOption.OFF ? TraceOption.ROOT : traceSpans, spanFrames);
    }

    /** {@code spans} or {@code spans=root}: the span frames in collapsed and HTML outputs; {@code spans=off}. */
    private static boolean spans(String value) {
        if (value == null || value.equals("root")) {
            return true;
        }
        if (value.equals("off")) {
            return false;
        }
        throw new IllegalArgumentException("spans=" + value + ": expected spans, spans=root or spans=off");
    }

    /** An output word, unless another of another format was given. */
    private static OutputFormat outputWord(OutputFormat before, String beforeKey, String key, OutputFormat format) {
        if (before != null && before != format) {
            throw new IllegalArgumentException("options name two output formats: " + beforeKey + " and " + key);
        }
        return format;
    }

    /**
     * async-profiler's clock-time form {@code hh:mm[:ss]}: the second of the day it names, or -1 when the value is
     * not in that form.
     */
    static int clockTime(String key, String value) {
        String v = required(key, value);
        if (v.indexOf(':') < 0) {
            return -1;
        }
        String[] parts = v.split(":", -1);
        if (parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException(key + "=" + value + " is not a clock time hh:mm:ss");
        }
        int[] limits = {24, 60, 60};
        int second = 0;
        for (int i = 0; i < 3; i++) {
            int n = 0;
            if (i < parts.length) {
                String p = parts[i];
                if (p.isEmpty() || p.length() > 2 || !Character.isDigit(p.charAt(0))
                        || !Character.isDigit(p.charAt(p.length() - 1))) {
                    throw new IllegalArgumentException(key + "=" + value + " is not a clock time hh:mm:ss");
                }
                n = Integer.parseInt(p);
                // async-profiler takes 24:00:00 for midnight.
                if (n >= limits[i] && !(i == 0 && n == 24 && v.matches("24(:00){1,2}"))) {
                    throw new IllegalArgumentException(key + "=" + value + " is not a clock time hh:mm:ss");
                }
            }
            second = second * 60 + n;
        }
        return second % (int) DAY_SECONDS;
    }

    /** The format a file of {@code template} is written in: the output word's, else its name's. */
    public OutputFormat formatOf(String template) {
        return output.formatOf(template);
    }

    /**
     * Parses options as an attach, {@code record} and the Java API read them: with the options file
     * {@code options=@PATH} names ({@link StartupOptions}).
     *
     * @throws IllegalArgumentException with a one-line message
     */
    public static AgentOptions parseWithFile(String text) {
        return parse(StartupOptions.compose(text, false, Map.of(), new java.util.Properties()).text());
    }

    /**
     * Parses options as a start-up reads them ({@code -javaagent}, {@code launch}): with the options file, the
     * environment's {@code MIXFLAME_OPTIONS} and Pyroscope's settings ({@link StartupOptions}).
     *
     * @throws IllegalArgumentException with a one-line message
     */
    public static AgentOptions parseAtStartup(String text) {
        return parse(StartupOptions.compose(text, true, System.getenv(), System.getProperties()).text());
    }

    /**
     * The events these options profile, in the order their profiles are written: {@code cpu} or {@code wall} when
     * sampled, then {@code alloc}, then {@code lock}.
     */
    public List<String> events() {
        List<String> events = new ArrayList<>(3);
        if (event != null) {
            events.add(event.optionName());
        }
        if (allocBytes != JdkEventSettings.OFF) {
            events.add(ProfileInfo.ALLOC);
        }
        if (lockNanos != JdkEventSettings.OFF) {
            events.add(ProfileInfo.LOCK);
        }
        return events;
    }

    /** What the stream of the JDK's allocation and lock events is asked to record with these options. */
    public JdkEventSettings jdkEventSettings() {
        return new JdkEventSettings(allocBytes, lockNanos, threads, recordsLines());
    }

    /** A size in bytes, with async-profiler's suffixes {@code k}, {@code m}, {@code g} (powers of 1024). */
    private static long bytes(String key, String value) {
        String v = required(key, value).toLowerCase(Locale.ROOT);
        long unit = 1;
        char last = v.charAt(v.length() - 1);
        int shift = last == 'k' ? 10 : last == 'm' ? 20 : last == 'g' ? 30 : 0;
        if (shift > 0) {
            unit = 1L << shift;
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 0 && n <= MAX_ALLOC_BYTES / unit) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + "=" + value + " is not a size in bytes (such as 512k) up to "
                + (MAX_ALLOC_BYTES >> 30) + "g");
    }

    /** {@code off}, or an absolute path: a relative one would depend on where each JVM happens to start. */
    private static String cacheDirectory(String value) {
        try {
            if (value.equals(CACHE_OFF) || Path.of(value).isAbsolute()) {
                return value;
            }
        } catch (InvalidPathException e) {
            // reported below
        }
        throw new IllegalArgumentException("cachedir=" + value + " is neither off nor an absolute path");
    }

    /**
     * Whether samples record each Java frame's line: when asked ({@code lines}), and always for JFR, pprof and OTLP
     * files and pushes, whose readers show lines in fields of their own (as async-profiler's JFR files always have
     * them).
     */
    public boolean recordsLines() {
        if (style.lines() || push.pushes()) {
            return true;
        }
        OutputFormat format = formatOf(file);
        return format == OutputFormat.JFR || format == OutputFormat.PPROF || format == OutputFormat.OTLP;
    }

    /** Whether the profile keeps when each sample was taken: for JFR files, whose events each have a time. */
    public boolean recordsTimes() {
        return formatOf(file) == OutputFormat.JFR;
    }

    /** What the engine is asked to sample with these options, without labels. */
    public SamplingSettings samplingSettings() {
        return samplingSettings(null);
    }

    /** What the engine is asked to sample with these options, with the labels found in {@code labels} (or null). */
    public SamplingSettings samplingSettings(LabelSource labels) {
        return new SamplingSettings(event, intervalNanos, threads, recordsLines(), recordsTimes(), labels);
    }

    /** How profiles written with these options are shaped: title, filter and frame style, root first. */
    public ReportOptions reportOptions() {
        return new ReportOptions(title, filter, output.reverse(), style, output.text(), spanFrames);
    }

    /**
     * The group of options a key belongs to, for the places options come from ({@link StartupOptions}): one spelling
     * of an option, one action, one output word, one event's options (its {@code alloc} and {@code lock} apart).
     */
    static String group(String key) {
        return switch (key) {
            case "start", "stop", "dump", "status", "load" -> "action";
            case "collapsed", "flamegraph", "tree", "jfr", "summary", "traces", "flat" -> "output";
            case "samples", "total" -> "counter";
            default -> canonical(key);
        };
    }

    /** async-profiler's spelling of an option and mixflame's are one option: giving both is giving it twice. */
    private static String canonical(String key) {
        return switch (key) {
            case "timeout" -> "duration";
            case "loglevel" -> "log";
            default -> key;
        };
    }

    private static void flag(String key, String value) {
        if (value != null) {
            throw new IllegalArgumentException("option '" + key + "' takes no value");
        }
    }

    private static String required(String key, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("option '" + key + "' needs a value: " + key + "=...");
        }
        return value;
    }

    /** A bare number is in {@code bareUnit}: nanoseconds for the interval, seconds for periods, as in async-profiler. */
    private static long duration(String key, String value, long min, long max, long bareUnit) {
        long nanos;
        try {
            nanos = Durations.parseNanos(required(key, value), bareUnit);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
        if (nanos < min) {
            throw new IllegalArgumentException(key + "=" + value + " is below the minimum of " + Durations.format(min));
        }
        if (nanos > max) {
            throw new IllegalArgumentException(key + "=" + value + " is above the maximum of " + Durations.format(max));
        }
        return nanos;
    }

    private static int positiveInt(String key, String value) {
        try {
            int n = Integer.parseInt(required(key, value));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + "=" + value + " is not a positive number");
    }

    private static NamePattern pattern(String key, String value) {
        try {
            return NamePattern.parse(required(key, value));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
    }
}
