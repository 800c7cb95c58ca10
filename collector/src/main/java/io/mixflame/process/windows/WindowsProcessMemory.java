package io.mixflame.process.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.process.ChunkedProcessMemory;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ProcessMemory;

/**
 * {@link ProcessMemory} over {@code ReadProcessMemory}: the kernel copies, so an unmapped or guarded address fails the
 * read and never touches this JVM. ReadProcessMemory refuses a whole range when any page of it is unreadable, so a
 * refused chunk is read again page by page to return what precedes the hole, as {@code process_vm_readv} does on
 * Linux.
 */
public final class WindowsProcessMemory extends ChunkedProcessMemory {
    private static final long PAGE = 4096;

    private final int pid;
    private final long process;
    private final Memory bytesRead = new Memory(8);
    private final long bufferAddress = Pointer.nativeValue(buffer);
    private final long bytesReadAddress = Pointer.nativeValue(bytesRead);

    private WindowsProcessMemory(int pid, long process) {
        this.pid = pid;
        this.process = process;
    }

    /**
     * Opens process {@code pid} for reading.
     *
     * @throws IllegalStateException when it does not exist or may not be read (another user's, protected)
     */
    public static WindowsProcessMemory open(long pid) {
        if (pid <= 0 || pid > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("not a pid: " + pid);
        }
        long handle = Kernel32Calls.OpenProcess(
                Kernel32Calls.PROCESS_VM_READ | Kernel32Calls.PROCESS_QUERY_INFORMATION, false, (int) pid);
        if (handle == 0) {
            throw new IllegalStateException("process " + pid + " cannot be opened for reading (no such process, or"
                    + " another user's)");
        }
        return new WindowsProcessMemory((int) pid, handle);
    }

    /** Writes through this process's own pseudo-handle, and only to this process: the handle opened reads only. */
    @Override
    public boolean writeByte(long address, byte value) {
        if (pid != OwnPid.get()) {
            return false;
        }
        // The count written at 0, the byte at 8: each where its type's alignment wants it.
        try (Memory scratch = new Memory(16)) {
            scratch.setByte(8, value);
            long at = Pointer.nativeValue(scratch);
            return Kernel32Calls.WriteProcessMemory(Kernel32Calls.GetCurrentProcess(), address, at + 8, 1, at);
        }
    }

    /** The process handle, for the other Windows queries of the same process. */
    public long handle() {
        return process;
    }

    @Override
    public long pid() {
        return pid;
    }

    /** How many bytes were readable before the first hole. */
    @Override
    protected int readChunk(long address, int length) {
        if (copy(address, 0, length)) {
            return length;
        }
        int got = 0;
        while (got < length) {
            long at = address + got;
            int inPage = (int) Math.min(length - got, PAGE - (at & (PAGE - 1)));
            if (!copy(at, got, inPage)) {
                break;
            }
            got += inPage;
        }
        return got;
    }

    private boolean copy(long address, int bufferOffset, int length) {
        bytesRead.setLong(0, 0);
        countSystemRead();
        return Kernel32Calls.ReadProcessMemory(process, address, bufferAddress + bufferOffset, length, bytesReadAddress)
                && bytesRead.getLong(0) == length;
    }

    @Override
    protected void release() {
        Kernel32Calls.CloseHandle(process);
        bytesRead.close();
    }
}
