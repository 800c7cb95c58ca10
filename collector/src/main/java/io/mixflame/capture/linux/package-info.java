/**
 * The Linux implementation of {@code ThreadCapture}, for thread dumps and the suspend engine: a thread blocked in the
 * kernel is captured from its syscall line without stopping it, a running thread of another process with a ptrace stop
 * of microseconds.
 */
package io.mixflame.capture.linux;
