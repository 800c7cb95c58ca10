/**
 * The capture stage, first in the pipeline (capture → unwind → symbolize → profile → report): a thread at one moment as
 * one platform-neutral value, {@code CapturedThread} (registers, a copy of the top of its stack, its stack region,
 * kernel return addresses), and {@code ThreadCapture}, the seam that captures a thread on demand for thread dumps and
 * the suspend engine. The platforms fill it in {@code capture.perf}, {@code capture.timer} (each thread in its own
 * signal handler), {@code capture.proc}, {@code capture.ptrace}, {@code capture.linux} and {@code capture.windows}.
 */
package io.mixflame.capture;
