/**
 * The Windows implementations of the process seams: memory through ReadProcessMemory, threads from Toolhelp snapshots
 * with their CPU times and descriptions, and the calling thread's id from GetCurrentThreadId. kernel32 and ntdll are
 * bound directly, so that a call on the sampling path allocates nothing.
 */
package io.mixflame.process.windows;
