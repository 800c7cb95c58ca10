/**
 * The examples jar, {@code java -jar mixflame-examples.jar WORKLOAD}: workloads to profile, each with a known truth
 * (the {@code cpu} workload's 5 : 3 : 2 split, say), which the end-to-end tests and the benchmark harness check
 * profiles against. Every workload ends by printing the process's footprint.
 */
package io.mixflame.examples;
