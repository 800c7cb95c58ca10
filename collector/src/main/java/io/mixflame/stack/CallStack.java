package io.mixflame.stack;

import io.mixflame.capture.CaptureMethod;
import java.util.List;

/**
 * The result of capturing one thread's stack.
 *
 * @param tid      the thread
 * @param method   how it was captured
 * @param frames   the frames, innermost first, after skip and maxFrames
 * @param complete whether the walk reached the thread's first frame
 * @param error    why the capture failed or is incomplete, or null
 */
public record CallStack(long tid, CaptureMethod method, List<StackFrame> frames, boolean complete, String error) {
}
