package io.mixflame.testapp;

/**
 * A target for allocation and lock profiles: prints {@code ready}, then for the number of seconds given (default 60)
 * two threads take turns on one monitor in {@code contend}, each holding it 2 ms while it allocates {@code long[]}.
 */
public final class ContendedApp {
    private static final Object MONITOR = new Object();
    static volatile Object sink;

    private ContendedApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        Runnable body = () -> {
            while (System.nanoTime() < deadline) {
                contend();
            }
        };
        Thread a = new Thread(body, "contended-a");
        Thread b = new Thread(body, "contended-b");
        a.start();
        b.start();
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        a.join();
        b.join();
        System.out.println("done");
    }

    static void contend() {
        synchronized (MONITOR) {
            long until = System.nanoTime() + 2_000_000L;
            while (System.nanoTime() < until) {
                sink = new long[256];
            }
        }
    }
}
