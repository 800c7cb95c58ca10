/**
 * Target processes on Linux: memory through {@code process_vm_readv}, modules and threads from {@code /proc}, thread
 * capture from {@code /proc} and ptrace, and the system's ptrace policy, for the line that tells a user why threads
 * could not be stopped.
 */
package io.mixflame.platform.linux;
