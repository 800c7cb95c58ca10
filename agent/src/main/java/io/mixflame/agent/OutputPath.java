package io.mixflame.agent;

import io.mixflame.report.OutputFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.UnaryOperator;

/**
 * Expands the {@code file=} template as async-profiler does: {@code %p} becomes the process id, {@code %t} a
 * timestamp, {@code %n{MAX}} the file's sequence number counted from 0 and taken modulo {@code MAX} ({@code %n} alone:
 * not wrapped), {@code %{NAME}} environment variable {@code NAME} (empty where unset), and {@code %e} the event
 * ({@code cpu}, {@code alloc}, {@code lock}); {@code %%} is a percent sign. A looping profile with neither {@code %t}
 * nor {@code %n} gets {@code -%t} before the extension, so that periods do not overwrite each other; so does a profile
 * of one of several events without {@code %e} get its event ({@link #perEvent}). The extension is found whatever its
 * case.
 */
final class OutputPath {
    private static final int MAX_SUFFIX = 999;
    private static final int MAX_ENV_NAME = 256;

    private OutputPath() {
    }

    /** The path a profile finished at {@code time} is written to. */
    static Path expand(String template, long pid, LocalDateTime time, boolean looping) {
        return expand(template, "", pid, time, looping, 0, System::getenv);
    }

    /** The path a profile of {@code event} finished at {@code time} is written to. */
    static Path expand(String template, String event, long pid, LocalDateTime time, boolean looping) {
        return expand(template, event, pid, time, looping, 0, System::getenv);
    }

    /**
     * The path the {@code sequence}-th file (from 0) of a profile of {@code event} finished at {@code time} is written
     * to, with environment variables read from {@code environment}.
     */
    static Path expand(String template, String event, long pid, LocalDateTime time, boolean looping, long sequence,
                       UnaryOperator<String> environment) {
        String t = looping && !has(template, 't') && !has(template, 'n') ? insertBeforeExtension(template, "-%t")
                : template;
        StringBuilder out = new StringBuilder(t.length() + 16);
        int i = 0;
        while (i < t.length()) {
            char c = t.charAt(i++);
            if (c != '%' || i == t.length()) {
                out.append(c);
                continue;
            }
            char k = t.charAt(i++);
            switch (k) {
                case 'p' -> out.append(pid);
                case 't' -> out.append(Stamp.FORMAT.format(time));
                case 'e' -> out.append(event);
                case '%' -> out.append('%');
                case 'n' -> {
                    long max = 0;
                    if (i < t.length() && t.charAt(i) == '{') {
                        int close = t.indexOf('}', i);
                        max = Long.parseLong(t.substring(i + 1, close));
                        i = close + 1;
                    }
                    out.append(max > 0 ? sequence % max : sequence);
                }
                case '{' -> {
                    int close = t.indexOf('}', i);
                    String value = environment.apply(t.substring(i, close));
                    out.append(value == null ? "" : value);
                    i = close + 1;
                }
                default -> out.append('%').append(k);
            }
        }
        return Path.of(out.toString());
    }

    /**
     * Checks a template's {@code %n{MAX}} and {@code %{NAME}} forms.
     *
     * @throws IllegalArgumentException with a one-line message naming what is wrong
     */
    static void check(String template) {
        int i = 0;
        while ((i = template.indexOf('%', i)) >= 0 && i + 1 < template.length()) {
            char k = template.charAt(i + 1);
            i += 2;
            if (k == '%') {
                continue;
            }
            if ((k == 'n' && i < template.length() && template.charAt(i) == '{') || k == '{') {
                int open = k == '{' ? i : i + 1;
                int close = template.indexOf('}', open);
                if (close < 0) {
                    throw new IllegalArgumentException("'%" + k + "' has no closing '}'");
                }
                String inside = template.substring(open, close);
                if (k == 'n' && !isPositiveNumber(inside)) {
                    throw new IllegalArgumentException("'%n{" + inside + "}' wants a positive whole number (%n{MAX})");
                }
                if (k == '{' && (inside.isEmpty() || inside.length() > MAX_ENV_NAME)) {
                    throw new IllegalArgumentException("'%{" + inside + "}' wants a variable's name (%{NAME})");
                }
                i = close + 1;
            }
        }
    }

    private static boolean isPositiveNumber(String s) {
        if (s.isEmpty() || s.length() > 9) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(s) > 0;
    }

    /**
     * Whether the template names a wrapping sequence ({@code %n{MAX}}): its files are a ring the user asked for, and a
     * loop replaces the file of the same number, as async-profiler does.
     */
    static boolean wraps(String template) {
        int at = find(template, 'n');
        return at >= 0 && at + 2 < template.length() && template.charAt(at + 2) == '{';
    }

    /** Whether the template has {@code %k} (not {@code %%k}). */
    private static boolean has(String template, char k) {
        return find(template, k) >= 0;
    }

    /** Where the template's first {@code %k} (not {@code %%k}) starts, or -1. */
    private static int find(String template, char k) {
        for (int i = 0; i + 1 < template.length(); i++) {
            if (template.charAt(i) == '%') {
                if (template.charAt(i + 1) == k) {
                    return i;
                }
                i++; // %% and every other pair
            }
        }
        return -1;
    }

    /**
     * The path the {@code sequence}-th file of a profile finished now is written to. The clock and its time zone are
     * read only when the name has a time in it: they load some seventy classes of java.time into the service's
     * start-up.
     */
    static Path expandNow(String template, String event, long pid, boolean looping, long sequence) {
        boolean timed = has(template, 't') || (looping && !has(template, 'n'));
        return expand(template, event, pid, timed ? LocalDateTime.now() : null, looping, sequence, System::getenv);
    }

    /** The time stamp's format, made at its first use. */
    private static final class Stamp {
        static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    }

    /** The template for one of several events' files: as it is when it has {@code %e}, else with {@code -%e}. */
    static String perEvent(String template) {
        return has(template, 'e') ? template : insertBeforeExtension(template, "-%e");
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

    /**
     * {@code name} with {@code insert} before its extension: one a format is told by (in any case, {@code .pb.gz}
     * whole), else what follows the file name's last dot (a name an output word gave its format), else at the end.
     */
    private static String insertBeforeExtension(String name, String insert) {
        int known = OutputFormat.extensionLength(name);
        int at = name.length() - known;
        if (known == 0) {
            int dot = name.lastIndexOf('.');
            int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
            at = dot > slash + 1 ? dot : name.length();
        }
        return name.substring(0, at) + insert + name.substring(at);
    }
}
