package io.mixflame.agent;

/** What one invocation of the agent asks for. */
public enum AgentAction {
    /** Start profiling (the default when no action is named). */
    START,
    /** Stop profiling and write the profile. */
    STOP,
    /** Write the profile so far and keep profiling. */
    DUMP,
    /** Report whether profiling runs and what it has gathered. */
    STATUS,
    /** Load the profiler and do nothing else: for the Java API ({@code Mixflame.execute}) and later commands. */
    LOAD
}
