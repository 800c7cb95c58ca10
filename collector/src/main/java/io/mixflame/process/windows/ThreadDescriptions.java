package io.mixflame.process.windows;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * GetThreadDescription, the name a thread was given with SetThreadDescription (Windows 10 1607 on): bound apart
 * from {@link Kernel32Calls} because older systems lack it, and a missing function would fail the binding of the
 * whole class.
 */
final class ThreadDescriptions {
    private static final int MAX_CHARS = 256;
    private static final boolean AVAILABLE = bind();

    private ThreadDescriptions() {
    }

    private static boolean bind() {
        try {
            Native.register(ThreadDescriptions.class, NativeLibrary.getInstance("kernelbase"));
            return true;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** HRESULT: 0 on success; the description is allocated by the system and freed with LocalFree. */
    private static native int GetThreadDescription(long thread, Pointer description);

    private static native long LocalFree(long memory);

    /** The description of the thread behind {@code handle} (opened with limited query rights), or null. */
    static String of(long handle) {
        if (!AVAILABLE) {
            return null;
        }
        try (Memory out = new Memory(8)) {
            out.setLong(0, 0);
            if (GetThreadDescription(handle, out) < 0) {
                return null;
            }
            long text = out.getLong(0);
            if (text == 0) {
                return null;
            }
            try {
                String name = new Pointer(text).getWideString(0);
                if (name.length() > MAX_CHARS) {
                    name = name.substring(0, MAX_CHARS);
                }
                return name.isEmpty() ? null : name;
            } finally {
                LocalFree(text);
            }
        }
    }
}
