package io.mixflame.engine;

import io.mixflame.capture.CostFigures;

/**
 * Numbers with a fixed count of decimals, with a point whatever the locale, for the engines' cost notes. Not
 * {@code String.format}: its first use in a JVM loads and runs the JDK's formatter, locale data and regular
 * expressions, a hundred classes the service's JIT then compiled as the profile was written.
 */
public final class FixedPoint {
    private static final long[] SCALE = {1, 10, 100, 1_000};

    private FixedPoint() {
    }

    /**
     * {@code value} rounded half up to {@code decimals} places (0 to 3), such as {@code "12.5"}; "NaN" or "Infinity"
     * as {@link Double#toString} has them.
     */
    public static String format(double value, int decimals) {
        if (decimals < 0 || decimals >= SCALE.length) {
            throw new IllegalArgumentException("decimals " + decimals);
        }
        if (Double.isNaN(value) || Double.isInfinite(value) || Math.abs(value) >= 1e15) {
            return Double.toString(value);
        }
        long scale = SCALE[decimals];
        long scaled = Math.round(Math.abs(value) * scale);
        StringBuilder b = new StringBuilder(24);
        if (value < 0 && scaled != 0) {
            b.append('-');
        }
        b.append(scaled / scale);
        if (decimals > 0) {
            b.append('.');
            String fraction = Long.toString(scaled % scale);
            for (int pad = decimals - fraction.length(); pad > 0; pad--) {
                b.append('0');
            }
            b.append(fraction);
        }
        return b.toString();
    }

    /** Nanoseconds as microseconds with one decimal, such as {@code "4.7"} for 4 650 ns ({@link CostFigures}). */
    public static String micros(long nanos) {
        return CostFigures.micros(nanos);
    }
}
