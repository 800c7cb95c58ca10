/**
 * Module images and the module map: which module holds an address and at which bias, the name a module goes by in
 * profiles ({@code StableModuleName}), its symbols, its exports and its native unwind data. {@code ModuleMap},
 * {@code ModuleImage} and {@code ExportedSymbols} are the seams each platform implements ({@code image.linux} with ELF
 * and DWARF, {@code image.windows} with PE).
 */
package io.mixflame.image;
