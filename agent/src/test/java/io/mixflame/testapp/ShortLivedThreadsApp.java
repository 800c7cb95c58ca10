package io.mixflame.testapp;

/**
 * Threads whose names a profile written at exit can only know from while they ran: one that works for about 300 ms
 * right after the JVM starts and ends long before the profile is written, one that renames itself before it works,
 * and one that renames itself after 400 ms and works on for 1.5 s. The main thread then works on alone for the seconds given
 * (default 3), so that the profile is written well after the first two ended.
 */
public final class ShortLivedThreadsApp {
    static volatile long sink;

    private ShortLivedThreadsApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 3;
        Thread early = new Thread(() -> spinFor(300, "early"), "EarlyEndingWorker");
        Thread renamed = new Thread(() -> {
            Thread.currentThread().setName("RenamedBeforeWork");
            spinFor(300, "renamed");
        }, "NameGivenAtStart");
        Thread late = new Thread(() -> {
            spinFor(400, "first");
            Thread.currentThread().setName("RenamedMidway");
            // Renames are looked for once a second: this part outlasts one look.
            spinFor(1500, "second");
        }, "NameBeforeRename");
        early.start();
        renamed.start();
        late.start();
        early.join();
        renamed.join();
        late.join();
        System.out.println("workers ended");
        System.out.flush();
        spinFor(seconds * 1000, "main");
    }

    static void spinFor(long millis, String part) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < deadline) {
            sink += SpinApp.spinInner(part.length() + sink);
        }
    }
}
