package io.mixflame.process.windows;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/** ntdll's thread query, bound directly: where a thread's TEB (and so its stack's limits) is. */
public final class NtdllCalls {
    /** THREADINFOCLASS ThreadBasicInformation. */
    public static final int THREAD_BASIC_INFORMATION = 0;
    /** Size of THREAD_BASIC_INFORMATION on x64. */
    public static final int THREAD_BASIC_INFORMATION_SIZE = 48;
    /** Offset of TebBaseAddress in THREAD_BASIC_INFORMATION on x64. */
    public static final int TEB_BASE_OFFSET = 8;

    static {
        Native.register(NtdllCalls.class, NativeLibrary.getInstance("ntdll"));
    }

    private NtdllCalls() {
    }

    /** Returns an NTSTATUS: 0 on success. */
    public static native int NtQueryInformationThread(long thread, int infoClass, Pointer info, int length,
                                                      Pointer returnLength);
}
