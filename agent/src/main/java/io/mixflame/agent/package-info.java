/**
 * The agent inside the profiled JVM, run in the profiler's isolated loader once the boot classes hand over: its options
 * (in async-profiler's syntax), the commands that start, stop, dump and describe a profiling session, and the session
 * itself. It starts the engine the options ask for (falling back in a fixed order when one is refused) and writes each
 * event's profile where {@code file=} says.
 */
package io.mixflame.agent;
