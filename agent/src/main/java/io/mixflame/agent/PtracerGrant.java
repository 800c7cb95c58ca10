package io.mixflame.agent;

import com.sun.jna.Native;
import io.mixflame.platform.host.TargetProcesses;
import io.mixflame.process.linux.LibcLibrary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names a process as the one allowed to trace this JVM ({@code prctl(PR_SET_PTRACER, pid)}): under Yama's
 * {@code ptrace_scope} 1 a process may trace only its descendants, and the helper is this JVM's child, not its parent.
 * Without Yama the call fails harmlessly, and the helper is allowed as a process of the same user.
 */
final class PtracerGrant {
    private static final Logger LOG = LoggerFactory.getLogger(PtracerGrant.class);
    private static final int PR_SET_PTRACER = 0x59616d61;

    private PtracerGrant() {
    }

    /** The libc function, bound on first use. */
    private static final class Libc {
        static {
            Native.register(Libc.class, LibcLibrary.get());
        }

        static native int prctl(int option, long arg2, long arg3, long arg4, long arg5);
    }

    /** Allows process {@code pid} to trace this one (Linux); says so in the log when the kernel refuses. */
    static void allow(long pid) {
        if (TargetProcesses.onWindows()) {
            return;
        }
        try {
            if (Libc.prctl(PR_SET_PTRACER, pid, 0, 0, 0) != 0) {
                LOG.debug("PR_SET_PTRACER refused (errno {}): no Yama here", Native.getLastError());
            }
        } catch (LinkageError | RuntimeException e) {
            LOG.debug("PR_SET_PTRACER could not be called: {}", e.toString());
        }
    }
}
