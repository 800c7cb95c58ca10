package io.mixflame.process;

/**
 * The kernel's id of the calling thread, which the JDK does not give (a {@link Thread}'s id is the JVM's own): how
 * samples, which name threads by the kernel's ids, are matched with what a thread recorded about itself. One
 * implementation per system ({@code process.linux}, {@code process.windows}).
 */
public interface OwnThreadId {
    /** The calling thread's kernel id, or -1 when it cannot be had. */
    long current();
}
