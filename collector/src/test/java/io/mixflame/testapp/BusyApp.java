package io.mixflame.testapp;

/** A thread, {@code mf-busy}, that burns CPU in {@link #burn} until the process ends; prints {@code ready}. */
public final class BusyApp {
    static volatile long sink;

    private BusyApp() {
    }

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(BusyApp::spin, "mf-busy");
        t.setDaemon(true);
        t.start();
        Thread.sleep(500);
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(120_000);
    }

    static void spin() {
        while (true) {
            sink += burn(sink);
        }
    }

    static long burn(long seed) {
        long x = seed | 1;
        for (int i = 0; i < 1_000_000; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }
}
