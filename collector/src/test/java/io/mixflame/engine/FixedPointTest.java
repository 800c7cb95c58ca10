package io.mixflame.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FixedPointTest {
    @Test
    void padsTheFractionAndRoundsHalfUp() {
        assertEquals("0.0", FixedPoint.format(0, 1));
        assertEquals("12.5", FixedPoint.format(12.46, 1));
        assertEquals("3.05", FixedPoint.format(3.049999, 2));
        assertEquals("1.01", FixedPoint.format(1.005001, 2));
        assertEquals("7", FixedPoint.format(6.5, 0));
        assertEquals("100.000", FixedPoint.format(99.99999, 3));
        assertEquals("-2.5", FixedPoint.format(-2.46, 1));
        assertEquals("0.0", FixedPoint.format(-0.01, 1));
        assertEquals("NaN", FixedPoint.format(Double.NaN, 1));
        assertEquals("Infinity", FixedPoint.format(Double.POSITIVE_INFINITY, 2));
    }

    @Test
    void agreesWithBigDecimalOnRandomValues() {
        Random random = new Random(24);
        for (int i = 0; i < 100_000; i++) {
            double v = random.nextDouble() * Math.pow(10, random.nextInt(9));
            int decimals = random.nextInt(4);
            String expected = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
            String actual = FixedPoint.format(v, decimals);
            if (!actual.equals(expected)) {
                // Scaling by a power of ten in doubles may tip a value within a rounding error of a tie.
                double scaled = v * Math.pow(10, decimals);
                double fromTie = Math.abs(scaled - Math.floor(scaled) - 0.5);
                assertEquals(true, fromTie < 1e-6 * Math.max(1, scaled),
                        v + " to " + decimals + ": " + actual + " against " + expected);
            }
        }
    }

    @Test
    void refusesDecimalsItCannotScale() {
        assertThrows(IllegalArgumentException.class, () -> FixedPoint.format(1, 4));
        assertThrows(IllegalArgumentException.class, () -> FixedPoint.format(1, -1));
    }
}
