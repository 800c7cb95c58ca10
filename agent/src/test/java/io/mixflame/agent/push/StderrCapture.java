package io.mixflame.agent.push;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The agent's log lines (its logger writes to {@code System.err}) while the capture is open. */
final class StderrCapture implements AutoCloseable {
    private final PrintStream saved = System.err;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    StderrCapture() {
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    }

    String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The lines at {@code level} ({@code WARN}, {@code INFO}) that mention {@code text}. */
    List<String> lines(String level, String text) {
        return text().lines().filter(l -> l.startsWith("[mixflame] " + level + " ") && l.contains(text)).toList();
    }

    @Override
    public void close() {
        System.setErr(saved);
    }
}
