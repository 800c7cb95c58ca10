package io.mixflame.agent.push;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The static labels of every pushed profile ({@code tags=region=eu;tier=web}): OpenTelemetry resource attributes and
 * Pyroscope labels. Keys are {@code [A-Za-z_][A-Za-z0-9_.]*}; values are non-empty and hold none of {@code {}=,;}
 * and no control character, so that they survive Pyroscope's {@code app{k=v,...}} syntax unquoted.
 */
public final class PushTags {
    /** The most tags. */
    public static final int MAX_TAGS = 32;
    private static final int MAX_KEY = 64;
    private static final int MAX_VALUE = 256;
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");

    private PushTags() {
    }

    /**
     * Parses the option's value, {@code k=v;k2=v2}.
     *
     * @return the tags in the order given, unmodifiable
     * @throws IllegalArgumentException with a one-line reason
     */
    public static Map<String, String> parse(String value) {
        Map<String, String> tags = new LinkedHashMap<>();
        for (String pair : value.split(";", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (key.length() > MAX_KEY || !KEY.matcher(key).matches()) {
                throw new IllegalArgumentException("tags=: key '" + printable(key) + "' is not [A-Za-z_][A-Za-z0-9_.]*"
                        + " of at most " + MAX_KEY + " characters");
            }
            if (key.equals("service.name")) {
                throw new IllegalArgumentException("tags=: service.name is set by service=");
            }
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            if (v.isEmpty() || v.length() > MAX_VALUE || !plain(v)) {
                throw new IllegalArgumentException("tags=: the value of " + key + " must be 1 to " + MAX_VALUE
                        + " characters without {}=,; or control characters");
            }
            if (tags.put(key, v) != null) {
                throw new IllegalArgumentException("tags=: " + key + " given twice");
            }
            if (tags.size() > MAX_TAGS) {
                throw new IllegalArgumentException("tags=: more than " + MAX_TAGS + " tags");
            }
        }
        return Collections.unmodifiableMap(tags);
    }

    private static boolean plain(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || "{}=,;".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** A bad key as a one-line message may show it. */
    private static String printable(String key) {
        String cut = key.length() > MAX_KEY ? key.substring(0, MAX_KEY) + "…" : key;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
