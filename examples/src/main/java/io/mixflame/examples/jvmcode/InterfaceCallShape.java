package io.mixflame.examples.jvmcode;

import java.util.function.Supplier;

/** Four lambdas called in turn through {@link Supplier}: a megamorphic interface call. */
final class InterfaceCallShape implements Shape {
    private final Supplier<?>[] suppliers = {() -> 1, () -> "two", () -> 3.0, () -> 4L};

    @Override
    public long round() {
        long n = 0;
        for (int i = 0; i < 4096; i++) {
            n += suppliers[i & 3].get().hashCode();
        }
        return n;
    }
}
