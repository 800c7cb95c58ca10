package io.mixflame.capture.perf;

/** perf_events cannot sample here; the message says why in one line. */
public final class PerfCaptureUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public PerfCaptureUnavailableException(String message) {
        super(message);
    }
}
