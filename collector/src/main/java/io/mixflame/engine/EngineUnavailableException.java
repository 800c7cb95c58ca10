package io.mixflame.engine;

/** An engine cannot run in this process; the message explains why in one line. */
public class EngineUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public EngineUnavailableException(String message) {
        super(message);
    }

    public EngineUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
