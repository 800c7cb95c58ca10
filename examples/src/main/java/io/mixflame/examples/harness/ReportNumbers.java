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

    /** A fraction as a percentage with two decimals, for small shares: {@code 0.04%}. */
    static String finePercent(double fraction) {
        return String.format(Locale.ROOT, "%.2f%%", 100 * fraction);
    }

    static String points(double pp) {
        return String.format(Locale.ROOT, "%.1f pp", pp);
    }

    /** Seconds to one decimal: {@code 12.3 s}. */
    static String seconds(double s) {
        return String.format(Locale.ROOT, "%.1f s", s);
    }

    /** Megabytes, whole: {@code 116 MB}. */
    static String megabytes(double mb) {
        return String.format(Locale.ROOT, "%.0f MB", mb);
    }

    /** Kilobytes as whole megabytes: {@code 116 MB}. */
    static String megabytesOfKb(double kb) {
        return megabytes(kb / 1024);
    }

    /** Kilobytes as megabytes to one decimal, for small amounts: {@code 4.2 MB}. */
    static String tenthsOfMegabyteOfKb(double kb) {
        return String.format(Locale.ROOT, "%.1f MB", kb / 1024);
    }

    /** A whole number: {@code 943}. */
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
