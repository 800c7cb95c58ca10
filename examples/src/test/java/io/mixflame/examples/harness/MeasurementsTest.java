package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MeasurementsTest {
    @Test
    void medianOfOddAndEvenCounts() {
        Measurements m = new Measurements();
        assertThat(m.median()).isEmpty();
        m.add(3);
        assertThat(m.spread()).as("one value has no spread").isEmpty();
        m.add(1);
        m.add(10);
        assertThat(m.median()).hasValue(3);
        m.add(4);
        assertThat(m.median()).hasValue(3.5);
        assertThat(m.spread().getAsDouble()).isCloseTo((10 - 1) / 3.5, within(1e-9));
    }
}
