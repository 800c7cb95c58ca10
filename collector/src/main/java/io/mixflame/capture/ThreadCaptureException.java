package io.mixflame.capture;

/** A thread could not be captured; the message says why in one line. */
public final class ThreadCaptureException extends Exception {
    /** A failure with its one-line reason. */
    public ThreadCaptureException(String message) {
        super(message);
    }
}
