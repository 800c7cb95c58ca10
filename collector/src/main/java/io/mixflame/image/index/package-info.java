/**
 * The host's module index: a directory of files, one per module, that hold a module's symbol table once it is read,
 * written atomically by the first process that reads the module and mapped read-only by every other JVM on the host.
 * Each file is checked (format, bounds, key) before use, and the directory is kept under a bound in bytes.
 */
package io.mixflame.image.index;
