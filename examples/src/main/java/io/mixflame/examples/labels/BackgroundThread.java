package io.mixflame.examples.labels;

/** A thread that works outside any request (as a cache refresher would): its samples must carry no endpoint. */
final class BackgroundThread {
    private BackgroundThread() {
    }

    /** Starts {@code background-worker}, working half its time until the JVM ends. */
    static void start() {
        Thread t = new Thread(() -> {
            while (true) {
                EndpointWork.background();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "background-worker");
        t.setDaemon(true);
        t.start();
    }
}
