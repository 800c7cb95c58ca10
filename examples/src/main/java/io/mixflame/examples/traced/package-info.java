/**
 * The {@code traced} workload: a Jetty core handler (no servlets) with an endpoint that works inline and one that
 * hands its work to an executor, for the tests of trace spans on samples under the OpenTelemetry Java agent.
 */
package io.mixflame.examples.traced;
