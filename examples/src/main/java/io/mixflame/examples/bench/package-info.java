/**
 * Micro-benchmarks of single parts of the profiler, run in this JVM: the perf capture alone, the native walk of one
 * real captured stack, the wall-clock engine among many idle threads, and what entering and leaving a labelled scope
 * costs a request.
 */
package io.mixflame.examples.bench;
