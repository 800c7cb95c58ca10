package io.mixflame.engine;

import java.util.Locale;

/** What a profile samples. */
public enum ProfilingEvent {
    /** Threads running on a CPU, sampled in proportion to the CPU time they use. */
    CPU,
    /** Every thread, running or waiting, sampled in proportion to elapsed time. */
    WALL;

    /** The option value, such as {@code cpu}. */
    public String optionName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses an option value.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static ProfilingEvent parse(String value) {
        for (ProfilingEvent e : values()) {
            if (e.optionName().equals(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown event '" + value + "' (expected cpu or wall)");
    }
}
