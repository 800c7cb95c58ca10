package io.mixflame.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What made a profile and over which time: every writer puts the engine's name in its output
 * (a comment in collapsed, the title in HTML, a comment string in pprof).
 *
 * @param engine       the engine that sampled, such as {@code jfr} or {@code perf}; {@code collapsed} when read from a file
 * @param event        what was sampled, such as {@code cpu} or {@code wall}
 * @param intervalNanos the sampling interval, 0 when unknown
 * @param startMillis  wall-clock start, epoch milliseconds, 0 when unknown
 * @param durationNanos how long the profile covers, 0 when unknown
 * @param notes        further one-line facts to carry into the output (the sampler's cost, a reached bound)
 * @param modules      the native modules the samples ran in, with their paths, the process's main executable first
 *                     when it is known (whether or not a sample ran in it), as pprof's first mapping names it; empty
 *                     when the engine knows none
 */
public record ProfileInfo(String engine, String event, long intervalNanos, long startMillis, long durationNanos,
                          List<String> notes, List<NativeModule> modules) {

    /**
     * The event of allocation profiles: each stack's weight is bytes allocated (an estimate: JFR samples allocations),
     * the interval the sampling interval in bytes (0: JFR's own rate).
     */
    public static final String ALLOC = "alloc";
    /**
     * The event of lock profiles: each stack's weight is the time threads waited to enter a monitor or parked, the
     * interval the threshold below which waits are not recorded.
     */
    public static final String LOCK = "lock";

    public ProfileInfo {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(event, "event");
        notes = List.copyOf(notes);
        modules = List.copyOf(modules);
    }

    /** Info that knows no modules. */
    public ProfileInfo(String engine, String event, long intervalNanos, long startMillis, long durationNanos,
                       List<String> notes) {
        this(engine, event, intervalNanos, startMillis, durationNanos, notes, List.of());
    }

    /** Info for a profile that came from a file whose producer is not known. */
    public static ProfileInfo unknown() {
        return new ProfileInfo("unknown", "unknown", 0, 0, 0, List.of());
    }

    /** The same info with one more note. */
    public ProfileInfo withNote(String note) {
        var all = new ArrayList<>(notes);
        all.add(note);
        return new ProfileInfo(engine, event, intervalNanos, startMillis, durationNanos, all, modules);
    }

    /** The same info with these modules instead. */
    public ProfileInfo withModules(List<NativeModule> newModules) {
        return new ProfileInfo(engine, event, intervalNanos, startMillis, durationNanos, notes, newModules);
    }

    /**
     * One line describing the producer, such as {@code engine=jfr event=cpu interval=10ms}; allocation and lock
     * profiles name their interval as their options do ({@code alloc=524288}, {@code lock=10us}), since it is no
     * sampling period (readers weigh samples by {@code interval=}).
     */
    public String describe() {
        StringBuilder sb = new StringBuilder("engine=").append(engine).append(" event=").append(event);
        if (event.equals(ALLOC)) {
            sb.append(intervalNanos > 0 ? " alloc=" + intervalNanos : "");
        } else if (event.equals(LOCK)) {
            sb.append(" lock=").append(Durations.format(intervalNanos));
        } else if (intervalNanos > 0) {
            sb.append(" interval=").append(Durations.format(intervalNanos));
        }
        return sb.toString();
    }
}
