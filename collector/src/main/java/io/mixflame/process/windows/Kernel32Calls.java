package io.mixflame.process.windows;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The few kernel32 and ntdll functions the Windows backend calls, bound directly: primitive arguments and
 * caller-owned buffers, so that a call on the sampling path allocates nothing (jna-platform's interface mappings box
 * their arguments and build structures per call). Handles are {@code long}. Loaded on first use, on Windows only.
 */
public final class Kernel32Calls {
    /** OpenProcess: read memory, query information. */
    public static final int PROCESS_VM_READ = 0x0010;
    /** OpenProcess: VirtualQueryEx, module and thread queries. */
    public static final int PROCESS_QUERY_INFORMATION = 0x0400;
    /** OpenThread: SuspendThread / ResumeThread. */
    public static final int THREAD_SUSPEND_RESUME = 0x0002;
    /** OpenThread: GetThreadContext. */
    public static final int THREAD_GET_CONTEXT = 0x0008;
    /** OpenThread: NtQueryInformationThread. */
    public static final int THREAD_QUERY_INFORMATION = 0x0040;
    /** OpenThread: GetThreadTimes (and little else). */
    public static final int THREAD_QUERY_LIMITED_INFORMATION = 0x0800;
    /** CreateToolhelp32Snapshot: threads of every process. */
    public static final int TH32CS_SNAPTHREAD = 0x4;
    /** CreateToolhelp32Snapshot: 64-bit modules of one process. */
    public static final int TH32CS_SNAPMODULE = 0x8;
    /** What a failed CreateToolhelp32Snapshot or OpenProcess returns. */
    public static final long INVALID_HANDLE_VALUE = -1L;

    static {
        Native.register(Kernel32Calls.class, NativeLibrary.getInstance("kernel32"));
    }

    private Kernel32Calls() {
    }

    public static native long OpenProcess(int access, boolean inherit, int pid);

    public static native long OpenThread(int access, boolean inherit, int tid);

    public static native boolean CloseHandle(long handle);

    /** Pointers as addresses ({@code Pointer.nativeValue}): no Pointer object per call. */
    public static native boolean ReadProcessMemory(long process, long address, long buffer, long size, long bytesRead);

    /** WriteProcessMemory, with addresses as numbers. */
    public static native boolean WriteProcessMemory(long process, long address, long buffer, long size, long written);

    /** GetCurrentProcess: the pseudo-handle of this process, with every access right. */
    public static native long GetCurrentProcess();

    /** GetCurrentThreadId: the calling thread's id. */
    public static native int GetCurrentThreadId();

    public static native int SuspendThread(long thread);

    public static native int ResumeThread(long thread);

    public static native boolean GetThreadContext(long thread, long context);

    /** Four FILETIMEs (100 ns units) at the given addresses: creation, exit, kernel time, user time. */
    public static native boolean GetThreadTimes(long thread, long creation, long exit, long kernel, long user);

    public static native long VirtualQueryEx(long process, long address, Pointer info, long length);

    public static native long CreateToolhelp32Snapshot(int flags, int pid);

    public static native boolean Thread32First(long snapshot, Pointer entry);

    public static native boolean Thread32Next(long snapshot, Pointer entry);

    public static native boolean Module32FirstW(long snapshot, Pointer entry);

    public static native boolean Module32NextW(long snapshot, Pointer entry);
}
