package io.mixflame.examples.service;

/**
 * {@code service}: runs the {@link Service} for a number of seconds, or with {@code --load} runs the
 * {@link LoadGenerator} against it in the same process until the load is done; then prints what the workers
 * measured.
 */
public final class ServiceWorkload {
    private ServiceWorkload() {
    }

    /**
     * Runs the service.
     *
     * @param seconds how long to serve, or at most how long the load runs
     * @param load    whether to run the load generator in this process
     * @param settings the load generator's settings
     */
    public static void run(int seconds, boolean load, LoadGenerator.Settings settings) throws Exception {
        try (Service service = Service.start()) {
            System.out.println("service: listening on 127.0.0.1:" + service.port());
            System.out.flush();
            if (load) {
                LoadGenerator.run(service.port(), settings).print(System.out);
            } else {
                Thread.sleep(seconds * 1000L);
            }
            // Stopped first, so that the times include every request the workers finished.
            service.close();
            service.printTimes(System.out);
        }
    }
}
