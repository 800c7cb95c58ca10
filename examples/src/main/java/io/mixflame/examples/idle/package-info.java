/**
 * The {@code idle} workload: many parked threads, the case where a wall-clock profiler's cost is all its own.
 */
package io.mixflame.examples.idle;
