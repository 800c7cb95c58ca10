/**
 * Another (or this) process, beneath every stage of the pipeline: its memory, read through a reader that cannot crash
 * the JVM (a bad address fails the read), its threads, its memory mappings, and the ids of this process and the calling
 * thread. {@code ProcessMemory}, {@code ThreadSource} and {@code OwnThreadId} are the seams each platform implements
 * ({@code process.linux}, {@code process.windows}).
 */
package io.mixflame.process;
