package io.mixflame.platform.host;

import io.mixflame.platform.TargetProcess;
import io.mixflame.platform.linux.LinuxTargetProcess;
import io.mixflame.platform.windows.WindowsTargetProcess;
import io.mixflame.process.OwnThreadId;
import io.mixflame.process.linux.GettidThreadId;
import io.mixflame.process.windows.WindowsOwnThreadId;
import java.io.IOException;
import java.util.Locale;

/** Opens processes with the implementations of the system the profiler runs on. */
public final class TargetProcesses {
    private TargetProcesses() {
    }

    /** Whether the profiler runs on Windows. */
    public static boolean onWindows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }

    /** The kernel's id of the calling thread, as this system gives it. */
    public static OwnThreadId ownThreadId() {
        return onWindows() ? new WindowsOwnThreadId() : GettidThreadId.bestAvailable();
    }

    /**
     * Opens process {@code pid} and reads its module map.
     *
     * @throws IOException when it does not exist or cannot be read, with the reason
     */
    public static TargetProcess open(long pid) throws IOException {
        return onWindows() ? WindowsTargetProcess.open(pid) : LinuxTargetProcess.open(pid);
    }
}
