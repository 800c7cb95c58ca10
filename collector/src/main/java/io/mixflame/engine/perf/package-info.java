/**
 * The native engine on Linux: perf_events samples of every thread of a process, handed from a sampler thread to a
 * walker thread that unwinds and names them into mixed Java and native stacks, without signals or safepoint bias.
 */
package io.mixflame.engine.perf;
