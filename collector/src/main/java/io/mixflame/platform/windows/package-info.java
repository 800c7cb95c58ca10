/**
 * Target processes on Windows: memory through ReadProcessMemory, modules and threads from Toolhelp snapshots and
 * VirtualQueryEx, thread capture with SuspendThread.
 */
package io.mixflame.platform.windows;
