/**
 * The engine that profiles another process from outside ({@code record --pid}) on the system the profiler runs on:
 * perf events on Linux, stopping threads (ptrace) where those are refused, and stopping threads on Windows.
 */
package io.mixflame.engine.external;
