/**
 * What the profiler's stages see of a process whatever the system: {@code TargetProcess}, another process (or this
 * one) — its memory, its module map, its threads and a way to capture one of them — implemented in
 * {@code platform.linux} and {@code platform.windows}, and chosen by {@code platform.host}.
 */
package io.mixflame.platform;
