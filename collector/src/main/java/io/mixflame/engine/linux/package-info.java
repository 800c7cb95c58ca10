/**
 * What the Linux engines (perf and timer, wall clock) share, so that no engine imports another: the sample pipeline
 * over {@code /proc}'s maps and tasks ({@code LinuxSampleStacks}), the perf feed that drains a capture and grows its
 * stack copies ({@code PerfFeed}), the test for when to list the threads again ({@code ThreadListingWatch}), the names
 * threads tell as they start and end through the JVM's own events ({@code JvmtiThreadLifeNames}), and the profiler
 * threads' CPU clock.
 */
package io.mixflame.engine.linux;
