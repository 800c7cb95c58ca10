/**
 * The Linux implementations of the module map and the module image: {@code /proc/PID/maps} (deleted files read through
 * {@code map_files}, the vDSO from memory), and ELF files with their separate debug files, their symbols through the
 * module index, and their DWARF call frame information.
 */
package io.mixflame.image.linux;
