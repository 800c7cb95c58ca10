/**
 * PE32+ images, read with every offset checked, from a file or as loaded in a process: headers, sections, data
 * directories, named exports, the CodeView build identity, and the x64 unwind data ({@code .pdata} RUNTIME_FUNCTIONs,
 * decoded UNWIND_INFO), the native unwind data of Windows modules that the PE unwinder reads.
 */
package io.mixflame.image.pe;
