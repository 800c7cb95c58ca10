package io.mixflame.capture.windows;

import io.mixflame.capture.CaptureMethod;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.ThreadCaptureException;
import io.mixflame.process.windows.WindowsProcessMemory;

/** A thread of a Windows process captured for a thread dump: suspended while its registers and stack are copied. */
public final class WindowsThreadCapture implements ThreadCapture {
    private final SuspendedThreadCapture suspended;

    /**
     * @param memory     the target's memory
     * @param stackBytes how much of a stack to copy at most
     */
    public WindowsThreadCapture(WindowsProcessMemory memory, int stackBytes) {
        this.suspended = new SuspendedThreadCapture(memory, stackBytes);
    }

    @Override
    public CaptureMethod capture(int tid, CapturedThread out) throws ThreadCaptureException {
        String failure = suspended.capture(tid, out);
        if (failure != null) {
            throw new ThreadCaptureException(failure);
        }
        return CaptureMethod.SUSPENDED;
    }

    @Override
    public void retainOnly(int[] alive, int n) {
        suspended.retainOnly(alive, n);
    }

    @Override
    public void close() {
        suspended.close();
    }
}
