/**
 * The Windows implementations of the module map and the module image: modules from a Toolhelp snapshot, each a PE image
 * read from its file or from the process, with the functions it does not export named from PDBs through DbgHelp where
 * any are found.
 */
package io.mixflame.image.windows;
