/**
 * DWARF call frame information ({@code .eh_frame}, {@code .debug_frame}), the native unwind data of ELF modules:
 * interpreted into sorted tables of interned unwind rules, or read on demand through the index of
 * {@code .eh_frame_hdr}, with a bounded evaluator for DWARF expressions. The DWARF unwinder reads it.
 */
package io.mixflame.image.dwarf;
