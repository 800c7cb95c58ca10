/**
 * The {@code mixed} workload: native code between Java frames, in three phases — zlib through {@code java.util.zip},
 * libc's {@code qsort} calling back into Java through JNA, and libc's {@code memcmp} — so that a profile can be checked
 * for native code below Java frames and Java again below that.
 */
package io.mixflame.examples.mixed;
