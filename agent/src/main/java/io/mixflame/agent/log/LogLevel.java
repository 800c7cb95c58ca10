package io.mixflame.agent.log;

import java.util.Locale;
import org.slf4j.event.Level;

/** The profiler's log threshold, set by the {@code log=} option; shared by all its loggers. */
public final class LogLevel {
    private static volatile int threshold = Level.INFO.toInt();

    private LogLevel() {
    }

    /**
     * Sets the threshold from an option value: trace, debug, info, warn, error or off.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static void set(String value) {
        threshold = parse(value);
    }

    /** Checks a value without applying it. */
    public static int parse(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.equals("off") || v.equals("none")) {
            return Integer.MAX_VALUE;
        }
        for (Level level : Level.values()) {
            if (level.name().toLowerCase(Locale.ROOT).equals(v)) {
                return level.toInt();
            }
        }
        throw new IllegalArgumentException("unknown log level '" + value + "' (expected trace, debug, info, warn, error or off)");
    }

    static boolean enabled(Level level) {
        return level.toInt() >= threshold;
    }
}
