/**
 * The unwinder of native code that has DWARF call frame information (ELF modules), by the rules of its module's CFI
 * table, with a search for the frame pointer when the capture did not record it.
 */
package io.mixflame.unwind.dwarf;
