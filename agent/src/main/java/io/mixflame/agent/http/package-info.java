/**
 * The HTTP endpoint of the {@code http=} option: a small non-blocking HTTP/1.x server inside the profiled JVM that
 * serves profiles of the next N seconds at pprof's {@code /debug/pprof/} paths, for continuous profilers to scrape, and
 * the session's state. Every resource it holds is bounded, so that no client can cost the service more than a few
 * threads and buffers.
 */
package io.mixflame.agent.http;
