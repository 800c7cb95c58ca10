/**
 * The HTTP servers' weaving for {@code labels=http}: advice on the request entry and exit of the JDK's
 * {@code com.sun.net.httpserver} and of the Servlet API in both namespaces, so that each request's samples carry its
 * {@code endpoint}. Packed with Byte Buddy into a jar of its own inside {@code mixflame.jar} and loaded below the
 * profiler's loader, only when HTTP labels are asked for.
 */
package io.mixflame.agent.labels.weave;
