/**
 * Where the unwinders are put in order for every walker ({@code UnwinderChain}: HotSpot, DWARF, PE x64, frame
 * pointers), and where HotSpot's frame rules are chosen by the machine's architecture.
 */
package io.mixflame.unwind.chain;
