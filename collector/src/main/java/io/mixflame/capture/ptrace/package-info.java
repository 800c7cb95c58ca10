/**
 * Capture with ptrace on Linux: a running thread of another process is stopped for microseconds ({@code PTRACE_SEIZE},
 * {@code PTRACE_INTERRUPT}) while its registers and the top of its stack are copied, then let go.
 */
package io.mixflame.capture.ptrace;
