/**
 * The one place that picks the system's implementations: {@code TargetProcesses.open} gives a {@code TargetProcess},
 * another process (or this one) as the profiler's stages see it — its memory, its module map, its threads and a way to
 * capture one of them — from {@code platform.linux} or {@code platform.windows}.
 */
package io.mixflame.platform;
