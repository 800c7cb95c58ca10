package io.mixflame.hotspot;

/** The process's JVM lacks something the walker needs; the message names it. */
public final class UnsupportedVmException extends Exception {
    private static final long serialVersionUID = 1L;

    public UnsupportedVmException(String message) {
        super(message);
    }
}
