/**
 * The Windows implementation of {@code ThreadCapture}: a thread of another process is suspended (SuspendThread,
 * GetThreadContext), the top of its stack copied with ReadProcessMemory, and resumed, filling a {@code CapturedThread}
 * for thread dumps and the suspend engine.
 */
package io.mixflame.capture.windows;
