/**
 * The native unwinder of Windows x64 modules, with RtlVirtualUnwind's semantics: a frame is unwound by its image's
 * {@code .pdata}/{@code .xdata}, an epilog is recognized and run forward, and every stack slot read is checked against
 * the stack's limits, so that corrupted unwind data cannot make a step read elsewhere.
 */
package io.mixflame.unwind.pe;
