package io.mixflame.profile;

/** Parsing and printing of durations in the units profiler options use: ns, us, ms, s (and m, h for long periods). */
public final class Durations {
    private Durations() {
    }

    /**
     * Parses {@code 10ms}, {@code 500us}, {@code 2s}, {@code 1m}; a bare number is taken in {@code defaultUnitNanos}.
     *
     * @throws IllegalArgumentException with a message naming the bad text
     */
    public static long parseNanos(String text, long defaultUnitNanos) {
        String s = text.trim();
        int end = 0;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
            end++;
        }
        if (end == 0) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (expected a number with ns, us, ms, s, m, h or d)");
        }
        long value;
        try {
            value = Long.parseLong(s.substring(0, end));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("duration too large: '" + text + "'");
        }
        long unit = switch (s.substring(end)) {
            case "" -> defaultUnitNanos;
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "d" -> 86_400_000_000_000L;
            default -> throw new IllegalArgumentException(
                    "unknown unit in '" + text + "' (expected ns, us, ms, s, m, h or d)");
        };
        try {
            return Math.multiplyExact(value, unit);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("duration too large: '" + text + "'");
        }
    }

    /** The shortest exact form: {@code 10ms}, {@code 1500us}, {@code 2s}. */
    public static String format(long nanos) {
        if (nanos != 0) {
            if (nanos % 1_000_000_000L == 0) {
                return nanos / 1_000_000_000L + "s";
            }
            if (nanos % 1_000_000L == 0) {
                return nanos / 1_000_000L + "ms";
            }
            if (nanos % 1_000L == 0) {
                return nanos / 1_000L + "us";
            }
        }
        return nanos + "ns";
    }
}
