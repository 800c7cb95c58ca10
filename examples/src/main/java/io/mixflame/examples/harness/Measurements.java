package io.mixflame.examples.harness;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoubleConsumer;

/** The values one figure took over repeated runs. */
final class Measurements {
    private final List<Double> values = new ArrayList<>();

    void add(double value) {
        values.add(value);
    }

    /** The median, or empty without values. */
    OptionalDouble median() {
        if (values.isEmpty()) {
            return OptionalDouble.empty();
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return OptionalDouble.of(n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2);
    }

    /** (max − min) / median: how far apart the runs were, as a fraction; empty with fewer than two values. */
    OptionalDouble spread() {
        OptionalDouble median = median();
        if (values.size() < 2 || median.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        double min = Collections.min(values);
        double max = Collections.max(values);
        return OptionalDouble.of((max - min) / median.getAsDouble());
    }

    /** The smallest value, or empty without values. */
    OptionalDouble min() {
        return values.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Collections.min(values));
    }

    /** The largest value, or empty without values. */
    OptionalDouble max() {
        return values.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Collections.max(values));
    }

    /** Applies {@code action} to every value. */
    void forEach(DoubleConsumer action) {
        values.forEach(action::accept);
    }

    int count() {
        return values.size();
    }
}
