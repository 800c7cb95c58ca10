package io.mixflame.examples.churn;

import java.util.Arrays;

/**
 * Receiver types for the deoptimization in {@link ChurnPayload}: one kind while the JIT compiles the call site, all
 * four afterwards. Loaded once by the application loader and shared by every payload copy.
 */
public final class Shapes {
    private static final int COUNT = 64;

    private Shapes() {
    }

    /** Something with sides. */
    public interface Shape {
        /** How many sides. */
        int sides();
    }

    /** Three sides. */
    public static final class Triangle implements Shape {
        @Override
        public int sides() {
            return 3;
        }
    }

    /** Four sides. */
    public static final class Square implements Shape {
        @Override
        public int sides() {
            return 4;
        }
    }

    /** Five sides. */
    public static final class Pentagon implements Shape {
        @Override
        public int sides() {
            return 5;
        }
    }

    /** Six sides. */
    public static final class Hexagon implements Shape {
        @Override
        public int sides() {
            return 6;
        }
    }

    /** Squares only: the JIT sees one receiver type and inlines it behind a type check. */
    public static Shape[] squares() {
        Shape[] shapes = new Shape[COUNT];
        Arrays.fill(shapes, new Square());
        return shapes;
    }

    /** All four kinds: the type check of code compiled for squares fails. */
    public static Shape[] allKinds() {
        Shape[] kinds = {new Triangle(), new Square(), new Pentagon(), new Hexagon()};
        Shape[] shapes = new Shape[COUNT];
        for (int i = 0; i < COUNT; i++) {
            shapes[i] = kinds[i % kinds.length];
        }
        return shapes;
    }
}
