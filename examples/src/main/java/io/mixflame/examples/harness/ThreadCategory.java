package io.mixflame.examples.harness;

import io.mixflame.examples.saturate.SaturateWorkload;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a thread is there for, from the name async-profiler's {@code threads} option puts in a stack's root frame,
 * {@code [name tid=N]}. JVM threads carry their OS name there, cut to 15 characters ({@code C2 CompilerThre}),
 * Java threads their full Java name.
 */
enum ThreadCategory {
    /** C1 and C2 compiler threads: compiling the workload's code, and the profilers' Java code too. */
    JIT_COMPILER("JIT compiler threads (`C1`/`C2 CompilerThread`)"),
    /** mixflame's perf engine thread that unwinds and names samples. */
    MIXFLAME_WALKER("`mixflame-perf-walker`"),
    /** mixflame's perf engine thread that drains the ring buffers. */
    MIXFLAME_SAMPLER("`mixflame-perf-sampler`"),
    /** mixflame's other threads: writing the profile at exit, the timer, the HTTP endpoint. */
    MIXFLAME_OTHER("other `mixflame-*` threads"),
    /** Garbage collection: G1's threads, or the parallel collector's (G1 is the default on two cores and more). */
    GC("GC threads (`GC Thread#*`, `G1 *`)"),
    /** The workload's busy threads. */
    WORKLOAD("the workload's threads (`" + SaturateWorkload.THREAD_PREFIX + "*`)"),
    /** The main thread: JVM start-up, the agents' {@code premain}, then waiting for the workload. */
    MAIN("main thread (`main`, `DestroyJavaVM`)"),
    /** Everything else: the VM thread, service threads, async-profiler's own, unnamed native threads. */
    OTHER("other");

    private static final Pattern ROOT = Pattern.compile("\\[(.*?) ?tid=\\d+\\]");

    private final String label;

    ThreadCategory(String label) {
        this.label = label;
    }

    /** The name in the report's table. */
    String label() {
        return label;
    }

    /** The samples of a profile made with async-profiler's {@code threads} option, per category of thread. */
    static Map<ThreadCategory, Long> samplesOf(CollapsedProfile profile) {
        Map<ThreadCategory, Long> samples = new EnumMap<>(ThreadCategory.class);
        for (ThreadCategory c : values()) {
            samples.put(c, profile.samples(frames -> !frames.isEmpty() && ofRootFrame(frames.get(0)) == c));
        }
        return samples;
    }

    /** The category of the thread a root frame names; {@link #OTHER} when it is no {@code [name tid=N]} frame. */
    static ThreadCategory ofRootFrame(String frame) {
        Matcher m = ROOT.matcher(frame);
        return m.matches() ? ofThreadName(m.group(1)) : OTHER;
    }

    /** The category of a thread by its name. */
    static ThreadCategory ofThreadName(String name) {
        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return JIT_COMPILER;
        }
        if (name.equals("mixflame-perf-walker")) {
            return MIXFLAME_WALKER;
        }
        if (name.equals("mixflame-perf-sampler")) {
            return MIXFLAME_SAMPLER;
        }
        if (name.startsWith("mixflame-")) {
            return MIXFLAME_OTHER;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
            return GC;
        }
        if (name.startsWith(SaturateWorkload.THREAD_PREFIX)) {
            return WORKLOAD;
        }
        if (name.equals("main") || name.equals("DestroyJavaVM")) {
            return MAIN;
        }
        return OTHER;
    }
}
