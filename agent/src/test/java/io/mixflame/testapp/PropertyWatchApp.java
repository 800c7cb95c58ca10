package io.mixflame.testapp;

/**
 * A target for attach tests that watches the system properties JNA reads when its native part loads
 * ({@code jna.boot.library.path}, {@code jna.boot.library.name}), as an application's own JNA initializing at that
 * moment would: a thread polls them without pause and prints {@code seen NAME=VALUE} the first time either is set.
 * Prints {@code ready}, runs for the seconds given (default 60), then prints {@code done}.
 */
public final class PropertyWatchApp {
    private static final String[] WATCHED = {"jna.boot.library.path", "jna.boot.library.name"};

    private PropertyWatchApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
        Thread watcher = new Thread(PropertyWatchApp::watch, "property-watcher");
        watcher.setDaemon(true);
        watcher.start();
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        Thread.sleep(seconds * 1000L);
        System.out.println("done");
    }

    private static void watch() {
        boolean[] reported = new boolean[WATCHED.length];
        while (true) {
            for (int i = 0; i < WATCHED.length; i++) {
                String value = System.getProperty(WATCHED[i]);
                if (value != null && !reported[i]) {
                    reported[i] = true;
                    System.out.println("seen " + WATCHED[i] + "=" + value);
                    System.out.flush();
                }
            }
        }
    }
}
