package io.mixflame.profile;

/**
 * Sums of sample counts and weights. Counts are never negative, and a sum past {@link Long#MAX_VALUE} stops
 * there: a wrapped sum would turn into a negative count and every share computed from it would be nonsense.
 */
public final class Counts {

    private Counts() {
    }

    /** {@code a + b} for counts that are not negative, {@link Long#MAX_VALUE} where that would overflow. */
    public static long add(long a, long b) {
        long sum = a + b;
        // Two non-negative longs overflow only into the negative range.
        return sum < 0 && a >= 0 && b >= 0 ? Long.MAX_VALUE : sum;
    }

    /** {@code a * b} for counts that are not negative, {@link Long#MAX_VALUE} where that would overflow. */
    public static long multiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long product = a * b;
        return high != 0 || product < 0 ? Long.MAX_VALUE : product;
    }
}
