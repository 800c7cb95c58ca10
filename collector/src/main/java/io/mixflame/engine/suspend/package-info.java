/**
 * The engine that samples another process by stopping its threads, one at a time, at every tick through the system's
 * {@code ThreadCapture} (SuspendThread on Windows), then walks each captured stack; {@code record --pid} runs it on
 * Windows. It asks for CPU times and thread lists only as often as their cost allows, where every system call is a
 * round trip (under Wine).
 */
package io.mixflame.engine.suspend;
