/**
 * The one place that picks the system's implementations: {@code TargetProcesses.open} gives the {@code TargetProcess}
 * of {@code platform.linux} or {@code platform.windows}, whichever the profiler runs on.
 */
package io.mixflame.platform.host;
