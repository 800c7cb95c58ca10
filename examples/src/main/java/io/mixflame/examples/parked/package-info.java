/**
 * The {@code parked} workload: threads that stop in known Java call chains (parked, sleeping, waiting on a monitor) and
 * stay there, so that a thread dump taken from outside can be checked against what each thread does.
 */
package io.mixflame.examples.parked;
