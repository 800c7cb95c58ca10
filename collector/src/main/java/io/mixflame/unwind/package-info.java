/**
 * The unwind stage: the walker ({@code NativeStackWalker}) and its chain of unwinders ({@code UnwinderChain}: HotSpot,
 * DWARF, PE x64, frame pointers), which turn a captured thread's registers and stack into its frames, each step checked
 * against the stack's limits. The unwinders see only the platform-neutral interfaces; a native unwinder reads the
 * unwind data of its own format and declines the others.
 */
package io.mixflame.unwind;
