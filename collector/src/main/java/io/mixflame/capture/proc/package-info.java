/**
 * Capture from {@code /proc} on Linux: a thread blocked in the kernel, captured without stopping it from its syscall
 * line ({@code /proc/PID/task/TID/syscall}) and a copy of the top of its stack, and the kernel part of its stack where
 * that is readable.
 */
package io.mixflame.capture.proc;
