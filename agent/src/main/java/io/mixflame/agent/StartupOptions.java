package io.mixflame.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The agent's options from every place a deployment may set them, in order of precedence: the option text itself
 * ({@code -javaagent:mixflame.jar=…} or an attach's); an options file it names ({@code options=@/path}: options
 * separated by commas or lines, {@code #} starting a comment); and, for {@code -javaagent} only, the environment's
 * {@value #ENV} and Pyroscope's agent's settings ({@link PyroscopeSettings}). A key given in a place of higher
 * precedence drops every token of that key from the places below it, so that an image can set profiling once and a
 * command line still change one option.
 */
final class StartupOptions {
    /** The environment variable holding the agent's options, for an image that sets profiling once. */
    static final String ENV = "MIXFLAME_OPTIONS";
    static final int MAX_FILE_BYTES = 64 * 1024;
    private static final String FILE_KEY = "options";

    /**
     * The composed option text, what the log should say about where its options came from, and whether to start
     * at all.
     *
     * @param text   the options to parse
     * @param notes  one line each: which places gave options, what was skipped or ignored
     * @param enabled false where {@code PYROSCOPE_AGENT_ENABLED=false} and nothing else asks for profiling
     */
    record Composed(String text, List<String> notes, boolean enabled) {
    }

    private StartupOptions() {
    }

    /**
     * Composes the options of an agent start.
     *
     * @param premain whether this is {@code -javaagent} (the environment and Pyroscope's settings count), not an
     *                attach
     * @throws IllegalArgumentException with a one-line message where an options file cannot be read
     */
    static Composed compose(String text, boolean premain, Map<String, String> env, Properties system) {
        List<String> notes = new ArrayList<>();
        List<List<String>> layers = new ArrayList<>();
        layers.add(expandFile(text));
        if (premain) {
            String fromEnv = env.get(ENV);
            if (fromEnv != null && !fromEnv.isBlank()) {
                layers.add(expandFile(fromEnv));
                notes.add("options from " + ENV);
            }
            PyroscopeSettings pyroscope = PyroscopeSettings.of(system, env);
            boolean asked = text != null && !text.isBlank() || fromEnv != null && !fromEnv.isBlank();
            if (pyroscope.disabled() && !asked) {
                return new Composed("", notes, false);
            }
            if (pyroscope.used() && !pyroscope.disabled()) {
                layers.add(pyroscope.tokens(notes));
                notes.add(0, "options from Pyroscope's settings (PYROSCOPE_*, pyroscope.*)");
            }
        }
        return new Composed(String.join(",", merge(layers)), notes, true);
    }

    /** The layer's tokens, and those of the file its {@code options=@PATH} names in a layer just below it. */
    private static List<String> expandFile(String text) {
        List<String> own = new ArrayList<>();
        List<String> fromFile = null;
        for (String token : tokens(text)) {
            if (token.equals(FILE_KEY)) {
                throw new IllegalArgumentException("options= wants @PATH, a file of options");
            }
            if (token.startsWith(FILE_KEY + "=")) {
                if (fromFile != null) {
                    throw new IllegalArgumentException("option 'options' given twice");
                }
                fromFile = tokens(readFile(token.substring(FILE_KEY.length() + 1)));
                for (String t : fromFile) {
                    if (t.startsWith(FILE_KEY + "=")) {
                        throw new IllegalArgumentException("an options file cannot name another (options=)");
                    }
                }
            } else {
                own.add(token);
            }
        }
        if (fromFile != null) {
            // Below the text that named it: the text's own options win.
            return merge(List.of(own, fromFile));
        }
        return own;
    }

    private static String readFile(String value) {
        if (!value.startsWith("@") || value.length() == 1) {
            throw new IllegalArgumentException("options= wants @PATH, a file of options");
        }
        String path = value.substring(1);
        try {
            Path file = Path.of(path);
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException("options file " + path + " is larger than " + MAX_FILE_BYTES
                        + " bytes");
            }
            StringBuilder sb = new StringBuilder();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int hash = line.indexOf('#');
                String kept = (hash < 0 ? line : line.substring(0, hash)).strip();
                if (!kept.isEmpty()) {
                    sb.append(sb.length() == 0 ? "" : ",").append(kept);
                }
            }
            return sb.toString();
        } catch (IOException | InvalidPathException e) {
            throw new IllegalArgumentException("options file " + path + " cannot be read: "
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage()));
        }
    }

    private static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        if (text != null) {
            for (String t : text.split(",")) {
                if (!t.isBlank()) {
                    tokens.add(t.strip());
                }
            }
        }
        return tokens;
    }

    /** Every token of the first layer, then each lower layer's tokens of keys no layer above gave. */
    private static List<String> merge(List<List<String>> layers) {
        List<String> merged = new ArrayList<>();
        Set<String> given = new HashSet<>();
        for (List<String> layer : layers) {
            Set<String> here = new HashSet<>();
            for (String token : layer) {
                String key = AgentOptions.group(keyOf(token));
                if (!given.contains(key)) {
                    merged.add(token);
                    here.add(key);
                }
            }
            given.addAll(here);
        }
        return merged;
    }

    private static String keyOf(String token) {
        int eq = token.indexOf('=');
        return eq < 0 ? token : token.substring(0, eq);
    }
}
