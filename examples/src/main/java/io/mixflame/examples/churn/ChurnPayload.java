package io.mixflame.examples.churn;

import io.mixflame.examples.churn.Shapes.Shape;
import java.util.function.LongUnaryOperator;

/**
 * The class {@link ClassChurn} defines again in every throwaway loader. Each copy is a new class with methods the
 * JIT has never profiled, so each copy's {@link #sum} is compiled for squares only and then deoptimized when the
 * other shapes arrive. Only ever used through {@link LongUnaryOperator}, so that the application loader never
 * needs a copy of its own.
 */
public final class ChurnPayload implements LongUnaryOperator {
    /** Warms {@link #sum} up with squares for {@code warmNanos}, then calls it with every kind of shape. */
    @Override
    public long applyAsLong(long warmNanos) {
        Shape[] squares = Shapes.squares();
        long deadline = System.nanoTime() + warmNanos;
        long acc = 0;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 100; i++) {
                acc += sum(squares);
            }
        }
        Shape[] all = Shapes.allKinds();
        for (int i = 0; i < 100; i++) {
            acc += sum(all);
        }
        return acc;
    }

    private static long sum(Shape[] shapes) {
        long total = 0;
        for (Shape s : shapes) {
            total += s.sides();
        }
        return total;
    }
}
