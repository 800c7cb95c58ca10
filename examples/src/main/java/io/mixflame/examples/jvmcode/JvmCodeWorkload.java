package io.mixflame.examples.jvmcode;

import java.util.ArrayList;
import java.util.List;

/**
 * Code that runs mostly in what the JVM generates rather than in compiled Java: one thread per shape, each named by
 * it, so that a profile with one root per thread judges each shape on its own samples.
 * <ul>
 *   <li>{@code jvmcode-arraycopy}: a 1 M-char {@link StringBuilder} that grows at its end and is cut at its front,
 *       so nearly all time is the array copy of {@link StringBuilder#delete};</li>
 *   <li>{@code jvmcode-virtual}: the average of a {@code Number[]} of five boxed types, a megamorphic virtual call
 *       of a tiny method (vtable stubs, and the prologue and epilogue of small compiled methods);</li>
 *   <li>{@code jvmcode-interface}: four {@code Supplier} lambdas called through the interface (itable stubs);</li>
 *   <li>{@code jvmcode-digests}: CRC32, CRC32C, Adler32, MD5, SHA-1, SHA-256 and Base64 over byte arrays (the
 *       JVM's intrinsic stubs);</li>
 *   <li>{@code jvmcode-clock}: {@link System#currentTimeMillis} and {@link System#nanoTime} in a loop (the vDSO).</li>
 * </ul>
 */
public final class JvmCodeWorkload {
    /** The threads' names, each the shape it runs. */
    public static final List<String> THREADS = List.of("jvmcode-arraycopy", "jvmcode-virtual", "jvmcode-interface",
            "jvmcode-digests", "jvmcode-clock");

    private JvmCodeWorkload() {
    }

    /** Runs every shape on its own thread for {@code seconds}, then prints each thread's rounds. */
    public static void run(int seconds) throws InterruptedException {
        // For profilers that attach (attach, record --pid), which need to know whom to look at.
        System.out.println("jvmcode: pid " + ProcessHandle.current().pid());
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Shape> shapes = List.of(new ArrayCopyShape(), new VirtualCallShape(), new InterfaceCallShape(),
                new DigestShape(), new ClockShape());
        List<Thread> threads = new ArrayList<>();
        long[] rounds = new long[shapes.size()];
        for (int i = 0; i < shapes.size(); i++) {
            Shape shape = shapes.get(i);
            int index = i;
            Thread t = new Thread(() -> rounds[index] = loop(shape, deadline), THREADS.get(i));
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int i = 0; i < shapes.size(); i++) {
            System.out.println("jvmcode: " + THREADS.get(i) + " " + rounds[i] + " rounds in " + seconds + " s");
        }
    }

    private static long loop(Shape shape, long deadline) {
        long rounds = 0;
        long sink = 0;
        while (System.nanoTime() < deadline) {
            sink += shape.round();
            rounds++;
        }
        Shape.SINK.addAndGet(sink);
        return rounds;
    }
}
