/**
 * The engine that samples another process by stopping its threads, one at a time, at every tick through the system's
 * {@code ThreadCapture}, then walks each captured stack: on Windows with SuspendThread ({@code record --pid}, and the
 * helper process of {@code launch}), on Linux with ptrace's interrupt, named {@code ptrace}, where perf events are
 * refused ({@code engine=ptrace}, and its helper process inside the JVM). It asks for CPU times and thread lists only
 * as often as their cost allows, where every system call is a round trip (under Wine).
 */
package io.mixflame.engine.suspend;
