/**
 * The unwind stage: the walker ({@code NativeStackWalker}), the contract of its unwinders, what they share (registers,
 * stack memory and bounds, the walked stack) and the last of them, frame pointers. The unwinders that read a format
 * (HotSpot's code cache, DWARF, PE x64) are in sub-packages, put in order by {@code unwind.chain}; each step is checked
 * against the stack's limits. The unwinders see only the platform-neutral interfaces; a native unwinder reads the
 * unwind data of its own format and declines the others.
 */
package io.mixflame.unwind;
