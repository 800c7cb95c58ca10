package io.mixflame.examples.jvmcode;

/** Reads the clocks in a loop: nearly all time is in the vDSO's clock_gettime, called from the JVM's natives. */
final class ClockShape implements Shape {
    @Override
    public long round() {
        long n = 0;
        for (int i = 0; i < 1000; i++) {
            n += System.currentTimeMillis() + System.nanoTime();
        }
        return n;
    }
}
