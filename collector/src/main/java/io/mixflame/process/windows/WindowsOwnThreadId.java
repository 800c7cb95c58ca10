package io.mixflame.process.windows;

import io.mixflame.process.OwnThreadId;

/** The calling thread's id from kernel32's {@code GetCurrentThreadId}, the id Toolhelp and the samplers use. */
public final class WindowsOwnThreadId implements OwnThreadId {
    @Override
    public long current() {
        try {
            return Integer.toUnsignedLong(Kernel32Calls.GetCurrentThreadId());
        } catch (LinkageError e) {
            return -1;
        }
    }
}
