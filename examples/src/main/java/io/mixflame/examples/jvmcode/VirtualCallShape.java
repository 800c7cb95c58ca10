package io.mixflame.examples.jvmcode;

/**
 * Megamorphic virtual calls of tiny methods, so that much of the time is in vtable stubs and in the first and last
 * instructions of small compiled methods: the average of boxed numbers of five types ({@code doubleValue}), and the
 * sum of a tiny method of eight classes of the workload's own.
 */
final class VirtualCallShape implements Shape {
    private final Number[] numbers = new Number[4096];
    private final Tiny[] tinies = new Tiny[4096];

    VirtualCallShape() {
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = switch (i % 5) {
                case 0 -> Integer.valueOf(i);
                case 1 -> Long.valueOf(i);
                case 2 -> Double.valueOf(i);
                case 3 -> Float.valueOf(i);
                default -> Short.valueOf((short) i);
            };
            tinies[i] = Tiny.of(i % 8);
        }
    }

    @Override
    public long round() {
        return (long) average(numbers) + sum(tinies);
    }

    private static double average(Number... values) {
        double sum = 0;
        for (Number n : values) {
            sum += n.doubleValue();
        }
        return sum / values.length;
    }

    private static long sum(Tiny[] values) {
        long sum = 0;
        for (Tiny t : values) {
            sum += t.value();
        }
        return sum;
    }

    /** A class with eight subclasses whose one method returns a constant: a call of it is nearly all dispatch. */
    abstract static class Tiny {
        abstract int value();

        static Tiny of(int kind) {
            return switch (kind) {
                case 0 -> new T0();
                case 1 -> new T1();
                case 2 -> new T2();
                case 3 -> new T3();
                case 4 -> new T4();
                case 5 -> new T5();
                case 6 -> new T6();
                default -> new T7();
            };
        }
    }

    static final class T0 extends Tiny {
        @Override
        int value() {
            return 0;
        }
    }

    static final class T1 extends Tiny {
        @Override
        int value() {
            return 1;
        }
    }

    static final class T2 extends Tiny {
        @Override
        int value() {
            return 2;
        }
    }

    static final class T3 extends Tiny {
        @Override
        int value() {
            return 3;
        }
    }

    static final class T4 extends Tiny {
        @Override
        int value() {
            return 4;
        }
    }

    static final class T5 extends Tiny {
        @Override
        int value() {
            return 5;
        }
    }

    static final class T6 extends Tiny {
        @Override
        int value() {
            return 6;
        }
    }

    static final class T7 extends Tiny {
        @Override
        int value() {
            return 7;
        }
    }
}
