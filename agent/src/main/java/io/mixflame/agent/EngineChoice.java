package io.mixflame.agent;

import java.util.Locale;

/** The {@code engine=} option: let mixflame choose, or force one engine. */
public enum EngineChoice {
    /** The best engine that starts here. */
    AUTO,
    /** perf_events with mixflame's own unwinders: Java and native frames (Linux). */
    PERF,
    /**
     * A CPU-time timer per thread whose signal the thread takes itself, its handler copying registers and stack top
     * (Linux, x86-64): Java and native frames where perf_events are refused, no sample waiting for a profiler thread.
     */
    TIMER,
    /** JFR's execution samples: Java frames only, available on every JDK. */
    JFR,
    /**
     * A helper process, started from this JVM's own {@code java.home}, samples this JVM from outside (the suspend
     * engine on Windows, perf on Linux) and streams its stacks back: the native engine on Windows.
     */
    HELPER,
    /**
     * A helper process stops this JVM's threads one at a time for microseconds with ptrace, copies their registers
     * and stack tops and walks the copies (Linux): mixed stacks where perf_events are refused.
     */
    PTRACE;

    static EngineChoice parse(String value) {
        for (EngineChoice c : values()) {
            if (c.name().toLowerCase(Locale.ROOT).equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + value + "' (expected auto, perf, timer, jfr, helper or ptrace)");
    }
}
