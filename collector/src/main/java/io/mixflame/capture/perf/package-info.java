/**
 * Capture on Linux through perf_events: the kernel samples every thread of a process (a cpu-clock event per thread or
 * per CPU, no signals), and each sample's registers, stack copy and kernel callchain are read from the ring buffers
 * into reused {@code RawSample}s. This package opens the events within the process's limits and explains the kernel's
 * refusals; the perf engine drives it.
 */
package io.mixflame.capture.perf;
