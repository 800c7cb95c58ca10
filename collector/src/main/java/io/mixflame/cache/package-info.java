/**
 * Caches and tables the pipeline's stages share: bounded maps keyed by addresses that neither box nor allocate on a
 * hit, growing tables keyed by strings, primitive arrays outside the Java heap for the large tables (symbol addresses,
 * names), and the monotonic clock caches and reload timers are given. They keep the profiler's work out of the
 * service's heap and JIT where they can.
 */
package io.mixflame.cache;
