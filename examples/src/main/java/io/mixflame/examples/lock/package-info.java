/**
 * The {@code lock} workload: threads contending for one monitor and for one {@code ReentrantLock} in known methods, for
 * lock profiles.
 */
package io.mixflame.examples.lock;
