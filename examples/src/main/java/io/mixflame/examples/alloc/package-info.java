/**
 * The {@code alloc} workload: two threads in known methods allocating as many bytes of two array types at random, so
 * that an allocation profile can be checked to give each thread, and each type, half of the bytes.
 */
package io.mixflame.examples.alloc;
