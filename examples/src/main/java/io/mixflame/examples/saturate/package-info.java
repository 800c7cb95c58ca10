/**
 * The {@code saturate} workload: as many busy threads as cores, each doing rounds of the same mixed work (Java
 * arithmetic, zlib's CRC32 through JNI, a churning HashMap), so that a profiler's threads take their CPU from the
 * workload's and its cost shows as lost work.
 */
package io.mixflame.examples.saturate;
