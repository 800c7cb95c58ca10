package io.mixflame.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Pyroscope's Java agent's settings, read as it reads them (a system property {@code pyroscope.server.address} first,
 * then the environment's {@code PYROSCOPE_SERVER_ADDRESS}, then the properties file {@code PYROSCOPE_CONFIGURATION_FILE}
 * or {@code pyroscope.properties}), as the agent's options they mean: so that replacing {@code pyroscope.jar} with
 * {@code mixflame.jar} in {@code -javaagent} sends the same application's profiles under the same name and labels.
 * They are used where the server address or the application's name is set.
 *
 * <p>{@code PYROSCOPE_SERVER_ADDRESS} ({@code PYROSCOPE_ADHOC_SERVER_ADDRESS} first, else {@code
 * http://localhost:4040}) is {@code pyroscope=}; {@code PYROSCOPE_APPLICATION_NAME} ({@code name{k=v,...}}) is
 * {@code service=} and tags, {@code PYROSCOPE_LABELS} ({@code k=v,k=v}) more tags; {@code PYROSCOPE_UPLOAD_INTERVAL}
 * is {@code loop=} (10 s when not set, as there); {@code PYROSCOPE_PROFILING_INTERVAL}, {@code
 * PYROSCOPE_PROFILER_EVENT}, {@code PYROSCOPE_PROFILER_ALLOC}, {@code PYROSCOPE_PROFILER_LOCK} and {@code
 * PYROSCOPE_LOG_LEVEL} the sampling options; {@code PYROSCOPE_AUTH_TOKEN}, {@code PYROSCOPE_BASIC_AUTH_USER} and
 * {@code PYROSCOPE_BASIC_AUTH_PASSWORD} the credentials (basic auth wins, as there); {@code PYROSCOPE_TENANT_ID}
 * {@code tenant=}; {@code PYROSCOPE_HTTP_HEADERS} (a JSON object of strings) {@code header=} each; {@code
 * PYROSCOPE_AP_EXTRA_ARGUMENTS} async-profiler's options, read as the agent's. The rest are named as ignored.
 */
final class PyroscopeSettings {
    static final String DEFAULT_SERVER = "http://localhost:4040";
    static final String DEFAULT_UPLOAD_INTERVAL = "10s";
    private static final int MAX_FILE_BYTES = 64 * 1024;
    private static final List<String> IGNORED = List.of("PYROSCOPE_PROFILER_TYPE", "PYROSCOPE_JAVA_STACK_DEPTH_MAX",
            "PYROSCOPE_FORMAT", "PYROSCOPE_PUSH_QUEUE_CAPACITY", "PYROSCOPE_INGEST_MAX_TRIES",
            "PYROSCOPE_EXPORT_COMPRESSION_LEVEL_JFR", "PYROSCOPE_EXPORT_COMPRESSION_LEVEL_LABELS",
            "PYROSCOPE_ALLOC_LIVE", "PYROSCOPE_GC_BEFORE_DUMP", "PYROSCOPE_SAMPLING_RATE",
            "PYROSCOPE_SAMPLING_DURATION", "PYROSCOPE_SAMPLING_EVENT_ORDER", "PYROSCOPE_AP_LOG_LEVEL");

    private final UnaryOperator<String> lookup;

    private PyroscopeSettings(UnaryOperator<String> lookup) {
        this.lookup = lookup;
    }

    /**
     * The settings of this process: its system properties, its environment, and the properties file they name (or
     * {@code pyroscope.properties} in the working directory), as Pyroscope's agent reads them, in that order.
     */
    static PyroscopeSettings of(Properties system, Map<String, String> env) {
        UnaryOperator<String> first = key -> firstOf(system, env, null, key);
        String file = first.apply("PYROSCOPE_CONFIGURATION_FILE");
        Properties fromFile = PropertiesFile.read(file != null ? file : "pyroscope.properties", MAX_FILE_BYTES);
        return new PyroscopeSettings(key -> firstOf(system, env, fromFile, key));
    }

    private static String firstOf(Properties system, Map<String, String> env, Properties file, String key) {
        String v = property(system, key);
        if (v == null) {
            v = env.get(key);
        }
        if (v == null && file != null) {
            v = property(file, key);
        }
        return v == null || v.isBlank() ? null : v.strip();
    }

    /** {@code KEY} or {@code key.in.dots}, as Pyroscope's agent looks properties up. */
    private static String property(Properties p, String key) {
        String v = p.getProperty(key);
        return v != null ? v : p.getProperty(key.toLowerCase(Locale.ROOT).replace('_', '.'));
    }

    /** Whether the settings ask for profiles to be sent: a server or an application's name is set. */
    boolean used() {
        return get("PYROSCOPE_SERVER_ADDRESS") != null || get("PYROSCOPE_ADHOC_SERVER_ADDRESS") != null
                || get("PYROSCOPE_APPLICATION_NAME") != null;
    }

    /** Whether {@code PYROSCOPE_AGENT_ENABLED} is {@code false}. */
    boolean disabled() {
        return "false".equalsIgnoreCase(get("PYROSCOPE_AGENT_ENABLED"));
    }

    private String get(String key) {
        return lookup.apply(key);
    }

    /**
     * The agent's options these settings mean, as option tokens ({@code key=value}); {@code notes} is told what was
     * skipped or ignored, one line each.
     */
    List<String> tokens(List<String> notes) {
        List<String> tokens = new ArrayList<>();
        String server = get("PYROSCOPE_ADHOC_SERVER_ADDRESS");
        if (server == null) {
            server = get("PYROSCOPE_SERVER_ADDRESS");
        }
        add(tokens, notes, "pyroscope", server != null ? server : DEFAULT_SERVER);
        Map<String, String> labels = new TreeMap<>();
        String name = get("PYROSCOPE_APPLICATION_NAME");
        if (name != null) {
            int open = name.indexOf('{');
            int close = name.indexOf('}');
            if (open >= 0 && close > open) {
                labels.putAll(labels(name.substring(open + 1, close), notes));
                name = name.substring(0, open);
            }
            add(tokens, notes, "service", name.strip());
        }
        String more = get("PYROSCOPE_LABELS");
        if (more != null) {
            labels.putAll(labels(more, notes));
        }
        if (!labels.isEmpty()) {
            StringBuilder tags = new StringBuilder();
            for (Map.Entry<String, String> e : labels.entrySet()) {
                tags.append(tags.length() == 0 ? "" : ";").append(e.getKey()).append('=').append(e.getValue());
            }
            add(tokens, notes, "tags", tags.toString());
        }
        String upload = get("PYROSCOPE_UPLOAD_INTERVAL");
        add(tokens, notes, "loop", upload != null ? upload : DEFAULT_UPLOAD_INTERVAL);
        addIfSet(tokens, notes, "interval", "PYROSCOPE_PROFILING_INTERVAL");
        String event = get("PYROSCOPE_PROFILER_EVENT");
        if (event != null) {
            add(tokens, notes, "event", event.toLowerCase(Locale.ROOT));
        }
        addIfSet(tokens, notes, "alloc", "PYROSCOPE_PROFILER_ALLOC");
        addIfSet(tokens, notes, "lock", "PYROSCOPE_PROFILER_LOCK");
        String level = get("PYROSCOPE_LOG_LEVEL");
        if (level != null) {
            add(tokens, notes, "log", level.toLowerCase(Locale.ROOT));
        }
        String user = get("PYROSCOPE_BASIC_AUTH_USER");
        if (user != null) {
            add(tokens, notes, "authuser", user);
            addIfSet(tokens, notes, "authpassword", "PYROSCOPE_BASIC_AUTH_PASSWORD");
            if (get("PYROSCOPE_AUTH_TOKEN") != null) {
                notes.add("PYROSCOPE_AUTH_TOKEN is ignored: basic auth is set too (as Pyroscope's agent does)");
            }
        } else {
            addIfSet(tokens, notes, "authtoken", "PYROSCOPE_AUTH_TOKEN");
        }
        addIfSet(tokens, notes, "tenant", "PYROSCOPE_TENANT_ID");
        String headers = get("PYROSCOPE_HTTP_HEADERS");
        if (headers != null) {
            try {
                for (Map.Entry<String, String> h : JsonStringObject.parse(headers).entrySet()) {
                    add(tokens, notes, "header", h.getKey() + ":" + h.getValue());
                }
            } catch (IllegalArgumentException e) {
                notes.add("PYROSCOPE_HTTP_HEADERS is ignored: " + e.getMessage());
            }
        }
        String extra = get("PYROSCOPE_AP_EXTRA_ARGUMENTS");
        if (extra != null) {
            for (String token : extra.split(",")) {
                if (!token.isBlank()) {
                    tokens.add(token.strip());
                }
            }
        }
        List<String> ignored = new ArrayList<>();
        for (String key : IGNORED) {
            if (get(key) != null) {
                ignored.add(key);
            }
        }
        if (!ignored.isEmpty()) {
            notes.add("ignored Pyroscope's " + String.join(", ", ignored) + " (docs/options.md says why)");
        }
        return tokens;
    }

    private void addIfSet(List<String> tokens, List<String> notes, String option, String key) {
        String v = get(key);
        if (v != null) {
            add(tokens, notes, option, v);
        }
    }

    /** A value holding a comma cannot be an option's: skipped, and said. */
    private static void add(List<String> tokens, List<String> notes, String option, String value) {
        if (value.indexOf(',') >= 0) {
            notes.add("a Pyroscope setting for " + option + "= holds a comma and is skipped");
            return;
        }
        tokens.add(option + "=" + value);
    }

    /** Pyroscope's {@code k=v,k=v}: pairs that are not {@code k=v} with a key the push takes are skipped, and said. */
    private static Map<String, String> labels(String text, List<String> notes) {
        Map<String, String> labels = new TreeMap<>();
        for (String pair : text.split(",")) {
            String[] kv = pair.split("=", -1);
            if (pair.isBlank()) {
                continue;
            }
            String key = kv.length == 2 ? kv[0].strip() : "";
            String value = kv.length == 2 ? kv[1].strip() : "";
            if (!key.matches("[A-Za-z_][A-Za-z0-9_.]{0,63}") || value.isEmpty() || value.length() > 256
                    || value.matches(".*[{}=,;\\p{Cntrl}].*")) {
                notes.add("a Pyroscope label is skipped: '" + printable(pair) + "' is not KEY=VALUE with a key of"
                        + " letters, digits, _ and .");
                continue;
            }
            labels.put(key, value);
        }
        return labels;
    }

    private static String printable(String s) {
        String cut = s.length() > 64 ? s.substring(0, 64) + "…" : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
