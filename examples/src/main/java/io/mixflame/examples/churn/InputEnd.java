package io.mixflame.examples.churn;

import java.io.IOException;
import java.io.InputStream;

/** Watches standard input on a daemon thread and says when it has ended (end of file, or an error reading it). */
final class InputEnd {
    private volatile boolean ended;

    private InputEnd() {
    }

    /** Starts watching {@code System.in}. */
    static InputEnd watch() {
        InputEnd end = new InputEnd();
        Thread reader = new Thread(() -> end.readToEnd(System.in), "churn-input");
        reader.setDaemon(true);
        reader.start();
        return end;
    }

    /** Whether standard input has ended. */
    boolean ended() {
        return ended;
    }

    private void readToEnd(InputStream in) {
        byte[] buffer = new byte[256];
        try {
            while (in.read(buffer) >= 0) {
                // what is written is not read: only its end matters
            }
        } catch (IOException e) {
            // a closed or broken input ends the run as its end would
        }
        ended = true;
    }
}
