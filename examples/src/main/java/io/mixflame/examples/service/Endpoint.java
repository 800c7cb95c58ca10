package io.mixflame.examples.service;

/** The service's endpoints, each with a different way of spending a request's time. */
public enum Endpoint {
    /** CPU-heavy: computes for about a millisecond. */
    CPU("/cpu"),
    /** Blocking: sleeps about 20 ms. */
    SLEEP("/sleep"),
    /** Lock-contended: waits for one monitor shared by all workers, then holds it for a few ms. */
    LOCK("/lock");

    private final String path;

    Endpoint(String path) {
        this.path = path;
    }

    /** The URL path, such as {@code /cpu}. */
    public String path() {
        return path;
    }
}
