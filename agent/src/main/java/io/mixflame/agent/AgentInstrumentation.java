package io.mixflame.agent;

import java.lang.instrument.Instrumentation;

/** The JVM's instrumentation as the agent was given it ({@code -javaagent} or attach); none under {@code launch}. */
public final class AgentInstrumentation {
    private static volatile Instrumentation instrumentation;

    private AgentInstrumentation() {
    }

    static void set(Instrumentation given) {
        if (given != null) {
            instrumentation = given;
        }
    }

    /** The instrumentation, or null when the agent was not loaded as an agent. */
    public static Instrumentation get() {
        return instrumentation;
    }
}
