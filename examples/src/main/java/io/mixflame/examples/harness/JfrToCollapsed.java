package io.mixflame.examples.harness;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Turns a JFR recording's CPU samples ({@code jdk.ExecutionSample}) into the collapsed format, with the same frame
 * names and kind suffixes as async-profiler and mixflame, so that one reader serves all three.
 */
final class JfrToCollapsed {
    private static final String EVENT = "jdk.ExecutionSample";

    private JfrToCollapsed() {
    }

    /** Converts {@code jfr} and writes {@code collapsed}. */
    static void convert(Path jfr, Path collapsed) throws IOException {
        Map<String, Long> stacks = new LinkedHashMap<>();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (e.getEventType().getName().equals(EVENT) && e.getStackTrace() != null) {
                    stacks.merge(stack(e.getStackTrace().getFrames()), 1L, Long::sum);
                }
            }
        }
        try (Writer w = Files.newBufferedWriter(collapsed, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, Long> s : stacks.entrySet()) {
                w.write(s.getKey() + " " + s.getValue() + "\n");
            }
        }
    }

    private static String stack(List<RecordedFrame> leafFirst) {
        List<String> names = new ArrayList<>();
        for (RecordedFrame f : leafFirst) {
            names.add(f.getMethod().getType().getName().replace('.', '/') + "." + f.getMethod().getName()
                    + suffix(f.getType()));
        }
        Collections.reverse(names);
        return String.join(";", names);
    }

    /** JFR's frame types; all are Java methods ("Native" is a Java method declared native, not C code). */
    private static String suffix(String type) {
        return switch (type == null ? "" : type) {
            case "Interpreted" -> "_[0]";
            case "Inlined" -> "_[i]";
            case "C1 compiled" -> "_[1]";
            default -> "_[j]";
        };
    }
}
