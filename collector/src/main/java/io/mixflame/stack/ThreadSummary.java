package io.mixflame.stack;

/**
 * One thread of a process.
 *
 * @param tid       the Linux thread id
 * @param name      the full Java name for a Java thread, else the kernel's name ({@code /proc/.../comm})
 * @param javaState for a Java thread, HotSpot's state ("blocked", "in native", ...); null otherwise
 */
public record ThreadSummary(long tid, String name, String javaState) {
}
