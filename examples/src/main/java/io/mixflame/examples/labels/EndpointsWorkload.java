package io.mixflame.examples.labels;

/**
 * {@code endpoints [--jetty]}: an HTTP server with two endpoints whose requests cost CPU in the ratio 3 : 1
 * ({@code /heavy}, {@code /light}), on the JDK's server or on Jetty, and a thread working outside requests. It prints
 * {@code port N} and serves until the time is up; the load comes from outside (the tests' client).
 */
public final class EndpointsWorkload {
    private EndpointsWorkload() {
    }

    /** Serves for {@code seconds}. */
    public static void run(boolean jetty, int seconds) throws Exception {
        BackgroundThread.start();
        if (jetty) {
            try (JettyEndpointServer server = JettyEndpointServer.start()) {
                serve(server.port(), "jetty", seconds);
            }
        } else {
            try (JdkEndpointServer server = JdkEndpointServer.start()) {
                serve(server.port(), "jdk", seconds);
            }
        }
    }

    /** Whether Jetty is on the class path (the build copies it to workloads/jetty beside the examples jar). */
    public static boolean jettyPresent() {
        try {
            Class.forName("org.eclipse.jetty.server.Server", false, EndpointsWorkload.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static void serve(int port, String kind, int seconds) throws InterruptedException {
        System.out.println("port " + port + " (" + kind + ")");
        System.out.flush();
        Thread.sleep(seconds * 1000L);
        System.out.println("endpoints: served for " + seconds + " s");
    }
}
