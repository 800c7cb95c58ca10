package io.mixflame.agent.labels;

/**
 * What the {@code traces} option asks for: whether samples carry the OpenTelemetry span current on their thread, and
 * which span.
 */
public enum TraceOption {
    /** No spans (the default). */
    OFF,
    /** {@code traces} or {@code traces=root}: each sample carries its local root span, one per request. */
    ROOT,
    /** {@code traces=all}: each sample carries its innermost span. */
    ALL;

    /** Distinct spans in one period of the profile at most; the rest are {@code [span_id=other]}. */
    public static final int SPANS_PER_PERIOD = 4096;

    /**
     * The option's value: none (bare {@code traces}), {@code root}, {@code all} or {@code off}; null for a number, which
     * is async-profiler's {@code traces=N} (the text output's heaviest stacks).
     *
     * @throws IllegalArgumentException for anything else, saying what is expected
     */
    public static TraceOption parse(String value) {
        if (value == null) {
            return ROOT;
        }
        if (!value.isEmpty() && value.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return switch (value) {
            case "root" -> ROOT;
            case "all" -> ALL;
            case "off" -> OFF;
            default -> throw new IllegalArgumentException("traces=" + value + ": expected traces, traces=root, "
                    + "traces=all, traces=off, or async-profiler's traces=N (a number)");
        };
    }
}
