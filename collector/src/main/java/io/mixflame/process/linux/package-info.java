/**
 * The Linux implementations of the process seams: memory through {@code process_vm_readv}, threads from
 * {@code /proc/PID/task}, the calling thread's id from {@code /proc/thread-self}, and the memory maps; with the C
 * library as JNA's direct mappings bind it.
 */
package io.mixflame.process.linux;
