package io.mixflame.capture.timer;

import io.mixflame.process.MemoryMapping;
import io.mixflame.process.linux.ProcMaps;
import java.io.IOException;
import java.util.List;

/**
 * Finds where the stacks of sampled threads lie, so that the signal handler may copy them with plain loads: a drain
 * notes the threads whose samples were copied with {@code process_vm_readv}, with an sp and the thread pointer of
 * theirs, and after the drain one reading of {@code /proc/self/maps} places them all. A thread's stack is the
 * anonymous writable mapping holding its sp, up to its thread pointer where that lies inside it (a thread glibc made
 * has its TLS block just above its stack; the mapping alone may have merged with a neighbour), or the whole mapping for
 * the main thread's {@code [stack]}; a thread whose stack is not found so is not looked for again. Noting allocates
 * nothing; one sampler thread uses it.
 */
final class StackLocator {
    /** Threads one drain notes at most; the rest wait for the next. */
    static final int PER_DRAIN = 64;

    private final int[] tids = new int[PER_DRAIN];
    private final long[] sps = new long[PER_DRAIN];
    private final long[] threadPointers = new long[PER_DRAIN];
    private int noted;
    /** Threads whose stack was looked for and not found where the handler may copy it itself. */
    private final TidSet notFound = new TidSet(4096);

    /** Where the located stacks go. */
    interface Target {
        /** The region slot waiting for thread {@code tid}'s stack, or 0 when none does (placed, ended, no slot). */
        int slotOf(int tid);

        /** Thread {@code tid}'s stack is the {@code pages} pages below {@code high}. */
        void found(int tid, int slot, long high, long pages);
    }

    /** Notes a sample of thread {@code tid} whose stack the handler does not know. */
    void note(int tid, long sp, long threadPointer) {
        if (noted == PER_DRAIN || notFound.contains(tid)) {
            return;
        }
        for (int i = 0; i < noted; i++) {
            if (tids[i] == tid) {
                return;
            }
        }
        tids[noted] = tid;
        sps[noted] = sp;
        threadPointers[noted] = threadPointer;
        noted++;
    }

    /** Whether threads were noted since the last {@link #locate}. */
    boolean pending() {
        return noted > 0;
    }

    /** Places the threads noted, reading process {@code pid}'s maps once. */
    void locate(long pid, Target target) {
        List<MemoryMapping> maps;
        try {
            maps = ProcMaps.read(pid);
        } catch (IOException e) {
            noted = 0;
            return;
        }
        for (int i = 0; i < noted; i++) {
            int slot = target.slotOf(tids[i]);
            if (slot == 0) {
                continue;
            }
            long high = stackTop(maps, sps[i], threadPointers[i]);
            if (high == 0) {
                notFound.add(tids[i]);
                continue;
            }
            long low = containing(maps, sps[i]).start();
            target.found(tids[i], slot, high, Math.min(TimerRing.MAX_REGION_PAGES, (high - low) >>> 12));
        }
        noted = 0;
    }

    /**
     * Where the stack holding {@code sp} ends, for a copy with plain loads: the thread pointer {@code tp} where it lies
     * in the same anonymous writable mapping above sp, the mapping's end for the main thread's {@code [stack]}; 0 when
     * neither (an alternate signal stack, a coroutine's, a thread made without glibc).
     */
    static long stackTop(List<MemoryMapping> maps, long sp, long tp) {
        MemoryMapping m = containing(maps, sp);
        if (m == null || !m.readable() || !m.writable() || m.isFile() || m.executable()) {
            return 0;
        }
        if (tp > sp && m.contains(tp - 1)) {
            return tp;
        }
        return m.path().equals("[stack]") ? m.end() : 0;
    }

    private static MemoryMapping containing(List<MemoryMapping> maps, long address) {
        int lo = 0;
        int hi = maps.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemoryMapping m = maps.get(mid);
            if (Long.compareUnsigned(address, m.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, m.end()) >= 0) {
                lo = mid + 1;
            } else {
                return m;
            }
        }
        return null;
    }
}
