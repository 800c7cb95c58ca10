/**
 * The capture stage, first in the pipeline (capture → unwind → symbolize → profile → report): a thread at one moment as
 * one platform-neutral value, {@code CapturedThread} (registers, a copy of the top of its stack, its stack region,
 * kernel return addresses), and {@code ThreadCapture}, the seam that captures a thread on demand for thread dumps and
 * the suspend engine. The platforms fill it in {@code capture.perf}, {@code capture.timer} (each thread in its own
 * signal handler), {@code capture.proc}, {@code capture.ptrace}, {@code capture.linux} and {@code capture.windows}.
 * Registers are numbered by DWARF's numbers of the host's processor: {@code CpuArchitecture} is the seam that says
 * which are the pc, sp and fp and where each capture's raw layout puts them, {@code HostArchitecture} the one place
 * that picks the implementation by {@code os.arch} (x86-64's in {@code capture.x64}, listed in
 * {@code META-INF/services}), and {@code HostRegisters} its numbers as constants for the per-sample code.
 * {@code CostFigures} is how captures and engines alike write a time in their cost notes.
 */
package io.mixflame.capture;
