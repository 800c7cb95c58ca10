package io.mixflame.testapp;

import java.util.Random;
import java.util.zip.Deflater;

/**
 * Two busy threads for the seconds given: {@code deflater} compresses random bytes with the JDK's zlib (native code
 * below Java), {@code spinner} computes in Java alone. Prints {@code started} once both run.
 */
public final class DeflateApp {
    static volatile long sink;

    private DeflateApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        Thread deflater = new Thread(() -> {
            byte[] input = new byte[1 << 16];
            new Random(1).nextBytes(input);
            byte[] output = new byte[1 << 17];
            while (System.nanoTime() < end) {
                Deflater d = new Deflater(9);
                d.setInput(input);
                d.finish();
                while (!d.finished()) {
                    sink += d.deflate(output);
                }
                d.end();
            }
        }, "deflater");
        Thread spinner = new Thread(() -> {
            long x = 0;
            while (System.nanoTime() < end) {
                x = ServicePoolApp.burn(x);
            }
            sink = x;
        }, "spinner");
        deflater.start();
        spinner.start();
        System.out.println("started");
        System.out.flush();
        deflater.join();
        spinner.join();
    }
}
