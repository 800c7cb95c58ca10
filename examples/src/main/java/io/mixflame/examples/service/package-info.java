/**
 * The {@code service} workload: an HTTP service on the JDK's server, bound to loopback, whose worker threads measure
 * where their time goes per endpoint, and a load generator that drives it from the same process; a wall-clock profile's
 * shares are checked against those measurements.
 */
package io.mixflame.examples.service;
