package io.mixflame.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Expands the {@code file=} template: {@code %p} becomes the process id, {@code %t} a timestamp and {@code %e} the
 * event ({@code cpu}, {@code alloc}, {@code lock}), as in async-profiler. A looping profile without {@code %t} gets
 * one before the extension, so that periods do not overwrite each other; so does a profile of one of several events
 * without {@code %e} get its event ({@link #perEvent}).
 */
final class OutputPath {
    private static final int MAX_SUFFIX = 999;
    private static final String[] EXTENSIONS = {".pb.gz", ".collapsed", ".html", ".pprof", ".txt", ".jfr", ".otlp"};

    private OutputPath() {
    }

    /** The path a profile finished at {@code time} is written to. */
    static Path expand(String template, long pid, LocalDateTime time, boolean looping) {
        return expand(template, "", pid, time, looping);
    }

    /** The path a profile of {@code event} finished at {@code time} is written to. */
    static Path expand(String template, String event, long pid, LocalDateTime time, boolean looping) {
        String t = template.replace("%e", event);
        if (looping && !t.contains("%t")) {
            t = insertBeforeExtension(t, "-%t");
        }
        return Path.of(t.replace("%p", Long.toString(pid)).replace("%t", Stamp.FORMAT.format(time)));
    }

    /**
     * The path a profile finished now is written to. The clock and its time zone are read only when the name has
     * a time in it: they load some seventy classes of java.time into the service's start-up.
     */
    static Path expandNow(String template, String event, long pid, boolean looping) {
        if (looping || template.contains("%t")) {
            return expand(template, event, pid, LocalDateTime.now(), looping);
        }
        return Path.of(template.replace("%e", event).replace("%p", Long.toString(pid)));
    }

    /** The time stamp's format, made at its first use. */
    private static final class Stamp {
        static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    }

    /** The template for one of several events' files: as it is when it has {@code %e}, else with {@code -%e}. */
    static String perEvent(String template) {
        return template.contains("%e") ? template : insertBeforeExtension(template, "-%e");
    }

    /**
     * {@code path} when no file is there, else the first of {@code name-1.ext}, {@code name-2.ext}, … that is free
     * (after {@value #MAX_SUFFIX} tries, {@code path} itself).
     */
    static Path unused(Path path) {
        if (!Files.exists(path)) {
            return path;
        }
        String name = path.getFileName().toString();
        for (int n = 1; n <= MAX_SUFFIX; n++) {
            Path candidate = path.resolveSibling(insertBeforeExtension(name, "-" + n));
            if (!Files.exists(candidate)) {
                return candidate;
            }
        }
        return path;
    }

    private static String insertBeforeExtension(String name, String insert) {
        for (String ext : EXTENSIONS) {
            if (name.endsWith(ext)) {
                return name.substring(0, name.length() - ext.length()) + insert + ext;
            }
        }
        return name + insert;
    }
}
