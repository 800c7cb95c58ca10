package io.mixflame.testapp;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Virtual threads (JDK 21 and later) that burn CPU in {@link #burn} for the seconds given, mounted on the JDK's carrier
 * threads; found by reflection, so that the class compiles for JDK 17. Prints {@code done} at the end.
 *
 * <p>Arguments: seconds, virtual threads.
 */
public final class VirtualBurnApp {
    static volatile long sink;

    private VirtualBurnApp() {
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        int n = Integer.parseInt(args[1]);
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add((Thread) start.invoke(builder, (Runnable) () -> burn(end)));
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("done");
    }

    static void burn(long end) {
        long x = 0;
        while (System.nanoTime() < end) {
            x = ServicePoolApp.burn(x);
        }
        sink = x;
    }
}
