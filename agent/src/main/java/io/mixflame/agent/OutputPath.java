package io.mixflame.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Expands the {@code file=} template: {@code %p} becomes the process id and {@code %t} a timestamp, as in
 * async-profiler. A looping profile without {@code %t} gets one before the extension, so that periods do not
 * overwrite each other.
 */
final class OutputPath {
    private static final int MAX_SUFFIX = 999;
    private static final String[] EXTENSIONS = {".pb.gz", ".collapsed", ".html", ".pprof", ".txt", ".jfr"};

    private OutputPath() {
    }

    /** The path a profile finished at {@code time} is written to. */
    static Path expand(String template, long pid, LocalDateTime time, boolean looping) {
        String t = template;
        if (looping && !t.contains("%t")) {
            t = insertBeforeExtension(t, "-%t");
        }
        return Path.of(t.replace("%p", Long.toString(pid)).replace("%t", Stamp.FORMAT.format(time)));
    }

    /**
     * The path a profile finished now is written to. The clock and its time zone are read only when the name has
     * a time in it: they load some seventy classes of java.time into the service's start-up (issue 24).
     */
    static Path expandNow(String template, long pid, boolean looping) {
        if (looping || template.contains("%t")) {
            return expand(template, pid, LocalDateTime.now(), looping);
        }
        return Path.of(template.replace("%p", Long.toString(pid)));
    }

    /** The time stamp's format, made at its first use. */
    private static final class Stamp {
        static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
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
