/**
 * The label bridge, which the agent defines in the bootstrap class loader so that code of every class loader sees it:
 * the advice woven into HTTP servers and every copy of the {@code mixflame-api} reach the profiler's label recorder
 * through it. It holds the recorder as the JDK's function types only, never as a class of the profiler's loader.
 */
package io.mixflame.bridge;
