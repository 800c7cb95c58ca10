/**
 * ELF files, read with every offset checked against the file: sections, segments, build id, soname and debug link,
 * function symbols (symtab, dynsym, PLT entries) and the exported symbols HotSpot's tables are found by. A truncated or
 * corrupted file fails with {@code ElfFormatException} rather than being read past its end.
 */
package io.mixflame.image.elf;
