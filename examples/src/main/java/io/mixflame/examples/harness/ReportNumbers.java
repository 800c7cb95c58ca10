package io.mixflame.examples.harness;

import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/** How the report writes its numbers: ratios to three places, shares and costs as percentages. */
final class ReportNumbers {
    private ReportNumbers() {
    }

    static String ratio(double r) {
        return String.format(Locale.ROOT, "%.3f", r);
    }

    /** A fraction as a signed percentage: {@code +1.2%}. */
    static String signedPercent(double fraction) {
        return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
    }

    /** A fraction as a percentage: {@code 49.8%}. */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    static String points(double pp) {
        return String.format(Locale.ROOT, "%.1f pp", pp);
    }

    static String number(double n) {
        return String.format(Locale.ROOT, "%.0f", n);
    }

    /** The value written by {@code format}, or a dash when there is none. */
    static String orDash(OptionalDouble value, DoubleFunction<String> format) {
        return value.isPresent() ? format.apply(value.getAsDouble()) : "—";
    }

    /** {@code a / b}, empty when either is missing or b is 0. */
    static OptionalDouble divide(OptionalDouble a, OptionalDouble b) {
        return a.isPresent() && b.isPresent() && b.getAsDouble() != 0
                ? OptionalDouble.of(a.getAsDouble() / b.getAsDouble()) : OptionalDouble.empty();
    }
}
