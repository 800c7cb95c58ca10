package io.mixflame.testapp;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Scanner;

/**
 * Capture targets. {@code two}: on "go", two threads ({@code mf-burn-a}, {@code mf-burn-b}) each burn 3 s of their
 * own CPU time. {@code churn}: on "go", 200 short-lived threads each burn 100 ms of CPU, four at a time. Every
 * thread prints {@code tid NAME TID} first; {@code done} at the end.
 */
public final class BurnersApp {
    static volatile long sink;

    private BurnersApp() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        System.out.flush();
        new Scanner(System.in).nextLine();
        if (args[0].equals("two")) {
            Thread a = burner("mf-burn-a", 3_000);
            Thread b = burner("mf-burn-b", 3_000);
            a.join();
            b.join();
        } else {
            for (int batch = 0; batch < 50; batch++) {
                Thread[] ts = new Thread[4];
                for (int i = 0; i < 4; i++) {
                    ts[i] = burner("mf-churn-" + (batch * 4 + i), 100);
                }
                for (Thread t : ts) {
                    t.join();
                }
            }
        }
        System.out.println("done");
        System.out.flush();
    }

    private static Thread burner(String name, long cpuMillis) {
        Thread t = new Thread(() -> {
            try {
                String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
                synchronized (System.out) {
                    System.out.println("tid " + Thread.currentThread().getName() + " " + tid);
                    System.out.flush();
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            var mx = ManagementFactory.getThreadMXBean();
            long until = mx.getCurrentThreadCpuTime() + cpuMillis * 1_000_000L;
            long x = 1;
            while (mx.getCurrentThreadCpuTime() < until) {
                for (int i = 0; i < 10_000; i++) {
                    x ^= x << 13;
                    x ^= x >>> 7;
                    x ^= x << 17;
                }
                sink = x;
            }
        }, name);
        t.start();
        return t;
    }
}
