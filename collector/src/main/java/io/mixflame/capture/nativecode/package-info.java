/**
 * mixflame's own native code, shipped in the jar and bound through JNA: the library's loading and binding, shared by
 * the captures that call into it (the in-thread timer, the perf rings' relay), which keep their calls themselves.
 */
package io.mixflame.capture.nativecode;
