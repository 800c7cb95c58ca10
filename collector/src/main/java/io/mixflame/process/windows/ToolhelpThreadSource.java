package io.mixflame.process.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.process.ThreadSource;
import java.util.Arrays;

/**
 * The threads of a Windows process from a Toolhelp snapshot (which lists the threads of every process; those of the
 * target are kept). Windows has no cheaper count than a snapshot, so {@link #count()} takes one too. A thread's name
 * is its description (GetThreadDescription), which threads rarely set and older systems lack; Java threads are
 * named from HotSpot's thread list before this is asked.
 */
public final class ToolhelpThreadSource implements ThreadSource, AutoCloseable {
    /** THREADENTRY32: dwSize, cntUsage, th32ThreadID, th32OwnerProcessID, tpBasePri, tpDeltaPri, dwFlags. */
    private static final int ENTRY_SIZE = 28;
    private static final int THREAD_ID = 8;
    private static final int OWNER_ID = 12;

    private static final int MAX_THREADS = 4096;
    /** FILETIME ticks are 100 ns. */
    private static final long NANOS_PER_TICK = 100;

    private final int pid;
    /** Threads opened to read their times, closed when a listing no longer has them. */
    private final ThreadHandleTable handles = new ThreadHandleTable(Kernel32Calls.THREAD_QUERY_LIMITED_INFORMATION,
            MAX_THREADS);
    /** Creation, exit, kernel and user FILETIMEs. */
    private final Memory times = new Memory(32);
    private final long timesAddress = Pointer.nativeValue(times);

    /** The threads of process {@code pid}. */
    public ToolhelpThreadSource(long pid) {
        this.pid = (int) pid;
    }

    @Override
    public int count() {
        return list().length;
    }

    @Override
    public synchronized int[] list() {
        long snapshot = Kernel32Calls.CreateToolhelp32Snapshot(Kernel32Calls.TH32CS_SNAPTHREAD, 0);
        if (snapshot == Kernel32Calls.INVALID_HANDLE_VALUE || snapshot == 0) {
            return new int[0];
        }
        int[] tids = new int[64];
        int n = 0;
        try (Memory entry = new Memory(ENTRY_SIZE)) {
            entry.clear();
            entry.setInt(0, ENTRY_SIZE);
            boolean more = Kernel32Calls.Thread32First(snapshot, entry);
            while (more) {
                if (entry.getInt(OWNER_ID) == pid) {
                    if (n == tids.length) {
                        tids = Arrays.copyOf(tids, n * 2);
                    }
                    tids[n++] = entry.getInt(THREAD_ID);
                }
                entry.setInt(0, ENTRY_SIZE);
                more = Kernel32Calls.Thread32Next(snapshot, entry);
            }
        } finally {
            Kernel32Calls.CloseHandle(snapshot);
        }
        handles.retainOnly(tids, n);
        return Arrays.copyOf(tids, n);
    }

    @Override
    public synchronized long cpuTimeNanos(int tid) {
        int slot = handles.slotOf(tid);
        if (slot < 0) {
            return -1;
        }
        if (!Kernel32Calls.GetThreadTimes(handles.handle(slot), timesAddress, timesAddress + 8, timesAddress + 16,
                timesAddress + 24)) {
            handles.forget(tid);
            return -1;
        }
        return (times.getLong(16) + times.getLong(24)) * NANOS_PER_TICK;
    }

    /** Closes the threads opened for their times. */
    @Override
    public synchronized void close() {
        handles.close();
        times.close();
    }

    @Override
    public synchronized String name(int tid) {
        int slot = handles.slotOf(tid);
        return slot < 0 ? null : ThreadDescriptions.of(handles.handle(slot));
    }
}
