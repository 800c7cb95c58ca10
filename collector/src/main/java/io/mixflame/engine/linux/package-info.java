/**
 * What the Linux engines (perf and timer, wall clock) share: the sample pipeline over {@code /proc}'s maps and tasks
 * ({@code LinuxSampleStacks}), so that no engine imports another.
 */
package io.mixflame.engine.linux;
