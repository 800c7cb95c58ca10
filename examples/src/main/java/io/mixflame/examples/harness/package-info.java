/**
 * The benchmark harness: runs the example workloads in JVMs of their own under no profiler, async-profiler, JFR and
 * mixflame, and prints a markdown report of overhead, accuracy and mixflame's own cost against its targets. The studies
 * gather the runs; the sections turn them into the report's tables.
 */
package io.mixflame.examples.harness;
