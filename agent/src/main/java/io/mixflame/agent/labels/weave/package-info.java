/**
 * The weaving for labels and traces: advice on the request entry and exit of the JDK's {@code com.sun.net.httpserver}
 * and of the Servlet API in both namespaces, so that each request's samples carry its {@code endpoint}
 * ({@code labels=http}); and advice on OpenTelemetry's thread-local context storage, so that each sample carries the
 * span current on its thread ({@code traces}). Packed with Byte Buddy into a jar of its own inside
 * {@code mixflame.jar} and loaded below the profiler's loader, only when either is asked for.
 */
package io.mixflame.agent.labels.weave;
