package io.mixflame.examples.churn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Counts the JVM's deoptimizations (uncommon traps) while it runs, from JFR's {@code jdk.Deoptimization} events in
 * an in-process recording: no standard MXBean counts them.
 */
final class DeoptimizationCount implements AutoCloseable {
    private static final String EVENT = "jdk.Deoptimization";

    private final Recording recording = new Recording();

    DeoptimizationCount() {
        recording.setName("mixflame-examples-churn");
        recording.enable(EVENT).withoutStackTrace();
        recording.setToDisk(true);
        recording.start();
    }

    /** Stops counting; returns the count per reason, such as {@code class_check}. */
    Map<String, Long> stop() throws IOException {
        recording.stop();
        Path file = Files.createTempFile("mixflame-churn-", ".jfr");
        try {
            recording.dump(file);
            Map<String, Long> byReason = new TreeMap<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                if (e.getEventType().getName().equals(EVENT)) {
                    byReason.merge(e.getString("reason"), 1L, Long::sum);
                }
            }
            return byReason;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Override
    public void close() {
        recording.close();
    }
}
