/**
 * The profiler's own SLF4J binding inside its isolated loader: one line per message on the process's stderr, prefixed
 * {@code [mixflame]}, at the threshold the {@code log=} option sets. It takes nothing from the application's logging
 * configuration or system properties.
 */
package io.mixflame.agent.log;
