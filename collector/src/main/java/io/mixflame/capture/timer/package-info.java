/**
 * Capture inside the sampled thread (Linux): a CPU-time timer per thread signals that thread itself, and a
 * signal handler of native code shipped in the jar copies its registers and the top of its stack into a ring of
 * ordinary memory. No profiler thread has to run for a sample to be taken, and neither perf events nor ptrace are
 * needed; the perf engine's sampler drains the ring as it drains perf's, and its walker walks the copies. The
 * handler reads the registers through its architecture's header ({@code native/arch/<os.arch>}); the jar holds the
 * library built for x86-64.
 */
package io.mixflame.capture.timer;
