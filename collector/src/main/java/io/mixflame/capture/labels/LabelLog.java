package io.mixflame.capture.labels;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Each thread's recent label changes, outside the Java heap: a ring of (time, set id) per thread, written by the
 * thread itself when its labels change and read by the sampler, which asks what a thread's labels were at the moment
 * a sample was taken, a few milliseconds before it walks it.
 *
 * <p>A thread gets a slot at its first change ({@link #register}); slots of threads that have ended are given to
 * new ones. Bounded: {@code maxThreads} slots of {@link #ENTRIES} changes each, allocated a page of
 * {@link #SLOTS_PER_PAGE} slots at a time as threads come (4 KiB a thread).
 *
 * <p>One writer per slot (its thread), any number of readers: a slot's count of changes is published after each
 * change, and a reader checks it again after reading, so that it never trusts an entry the writer has reused.
 *
 * <p>For a helper process that samples this JVM from outside, the log publishes a directory of its slots
 * ({@link #directory()}: each thread's id and its slot's address), which the helper reads with the process's memory
 * ({@link RemoteSampleLabels}).
 */
public final class LabelLog {
    /** Changes kept per thread: at 20 changes a millisecond, the last 12 ms. */
    public static final int ENTRIES = 256;
    /** Slots of threads allocated together. */
    public static final int SLOTS_PER_PAGE = 32;
    /** The answer of {@link #setAt} when the changes around that time were overwritten before it was asked. */
    public static final int UNKNOWN = -1;

    private static final int HEADER = 16;
    private static final int ENTRY = 16;
    /** Bytes of one thread's slot: its count of changes, its tid, its ring. */
    static final int SLOT = HEADER + ENTRIES * ENTRY;
    /** The directory's first word, so that a reader given a wrong address reads nothing as labels. */
    static final long DIRECTORY_MAGIC = 0x4c42_4c46_4d31_0001L;
    /** The directory's header: magic, registrations, slots given out; then an entry per slot. */
    static final int DIRECTORY_HEADER = 64;
    /** A directory entry: the thread's kernel id, the address of its slot. */
    static final int DIRECTORY_ENTRY = 16;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.nativeOrder());

    /** The owner of a carrier's slot, which is never given to another thread. */
    private static final Object CARRIER = new Object();

    private final int maxThreads;
    private final ByteBuffer[] pages;
    /** The thread of each slot, so that a slot can be given again once its thread ended; guarded by this. */
    private final Object[] owners;
    private final long[] tids;
    private int slots;
    /** Changes whenever a slot gets another thread: readers then map tids to slots anew. */
    private volatile int registrations;
    private volatile int refused;
    /** The directory a helper process reads, made when first asked for; guarded by this. */
    private ByteBuffer directory;

    /** @param maxThreads threads with a slot at most */
    public LabelLog(int maxThreads) {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("at least one thread");
        }
        this.maxThreads = maxThreads;
        this.pages = new ByteBuffer[(maxThreads + SLOTS_PER_PAGE - 1) / SLOTS_PER_PAGE];
        this.owners = new Object[maxThreads];
        this.tids = new long[maxThreads];
    }

    /**
     * A slot for {@code thread}, whose kernel id is {@code tid}, starting empty (no labels before its first change);
     * -1 when every slot is held by a live thread.
     */
    public synchronized int register(Thread thread, long tid) {
        int slot = -1;
        for (int i = 0; i < slots && slot < 0; i++) {
            if (owners[i] == CARRIER) {
                continue;
            }
            Thread owner = owner(i);
            if (owner == null || !owner.isAlive()) {
                slot = i;
            }
        }
        if (slot < 0) {
            if (slots == maxThreads) {
                refused++;
                return -1;
            }
            slot = slots++;
            if (pages[slot / SLOTS_PER_PAGE] == null) {
                pages[slot / SLOTS_PER_PAGE] = ByteBuffer.allocateDirect(SLOTS_PER_PAGE * SLOT)
                        .order(ByteOrder.nativeOrder());
            }
        }
        ByteBuffer page = page(slot);
        int base = base(slot);
        LONGS.setVolatile(page, base, 0L);
        LONGS.setVolatile(page, base + 8, tid);
        owners[slot] = new WeakReference<>(thread);
        tids[slot] = tid;
        registrations++;
        if (directory != null) {
            publish(slot);
        }
        return slot;
    }

    /**
     * A slot for the virtual threads mounted on carrier {@code tid}, for good (carriers are few and live as long as
     * their pool); -1 when every slot is held. Written by each virtual thread while it is mounted there, one at a time.
     */
    public synchronized int registerCarrier(long tid) {
        int slot = register(Thread.currentThread(), tid);
        if (slot >= 0) {
            owners[slot] = CARRIER;
        }
        return slot;
    }

    private Thread owner(int slot) {
        return owners[slot] instanceof WeakReference<?> w && w.get() instanceof Thread t ? t : null;
    }

    /** The page that holds {@code slot}. */
    public ByteBuffer page(int slot) {
        return pages[slot / SLOTS_PER_PAGE];
    }

    /** Where {@code slot} begins in its page. */
    public static int base(int slot) {
        return (slot % SLOTS_PER_PAGE) * SLOT;
    }

    /**
     * Records that the thread of {@code slot} is in set {@code setId}, within span {@code span} (a {@link SpanTable}
     * handle, 0 for none), from {@code nanoTime} on; called by that thread only, with {@code count} the number of
     * changes it recorded before (which it keeps itself). The span rides in the entry's upper half, which readers of
     * the set alone (a helper process's) ignore.
     */
    public static void record(ByteBuffer page, int base, long count, long nanoTime, int setId, int span) {
        int entry = base + HEADER + (int) (count % ENTRIES) * ENTRY;
        LONGS.set(page, entry, nanoTime);
        LONGS.set(page, entry + 8, (setId & 0xFFFF_FFFFL) | (long) span << 32);
        LONGS.setRelease(page, base, count + 1);
    }

    /**
     * The set the thread of {@code slot} was in at {@code nanoTime}: {@link LabelSets#NONE} before its first
     * change, {@link #UNKNOWN} when the changes of that time were overwritten since.
     */
    public int setAt(int slot, long nanoTime) {
        return setAt(page(slot), base(slot), nanoTime);
    }

    /**
     * The whole entry in force at {@code nanoTime} in {@code slot}: the set in its lower half, the span's handle in
     * its upper half; 0 before the thread's first change, {@link #UNKNOWN} when overwritten since.
     */
    public long entryAt(int slot, long nanoTime) {
        return entryAt(page(slot), base(slot), nanoTime);
    }

    /**
     * The set in force at {@code nanoTime} in the slot at {@code base} of {@code page}: this log's own pages, or a
     * copy of another process's slot ({@link RemoteSampleLabels}).
     */
    static int setAt(ByteBuffer page, int base, long nanoTime) {
        long entry = entryAt(page, base, nanoTime);
        return entry == UNKNOWN ? UNKNOWN : (int) entry;
    }

    private static long entryAt(ByteBuffer page, int base, long nanoTime) {
        long count = (long) LONGS.getAcquire(page, base);
        long oldest = Math.max(0, count - ENTRIES);
        for (long k = count - 1; k >= oldest; k--) {
            int entry = base + HEADER + (int) (k % ENTRIES) * ENTRY;
            long time = (long) LONGS.get(page, entry);
            if (time - nanoTime <= 0) {
                long id = (long) LONGS.get(page, entry + 8);
                VarHandle.loadLoadFence();
                long now = (long) LONGS.getVolatile(page, base);
                // Entry k is reused by change k + ENTRIES: if that one was written, what was read may be its.
                return now - ENTRIES > k ? UNKNOWN : id;
            }
        }
        if (oldest > 0) {
            return UNKNOWN;
        }
        VarHandle.loadLoadFence();
        // Before its first change the thread had none, unless the changes read were reused while being read.
        return (long) LONGS.getVolatile(page, base) > ENTRIES ? UNKNOWN : 0L;
    }

    /** The thread id a slot at {@code base} of {@code page} holds. */
    static long tidAt(ByteBuffer page, int base) {
        return (long) LONGS.getVolatile(page, base + 8);
    }

    /**
     * The address of this log's directory, made now if it was not: a helper process given it finds every thread's
     * slot there ({@link RemoteSampleLabels}).
     */
    public synchronized long directory() {
        if (directory == null) {
            directory = ByteBuffer.allocateDirect(DIRECTORY_HEADER + maxThreads * DIRECTORY_ENTRY)
                    .order(ByteOrder.nativeOrder());
            directory.putLong(0, DIRECTORY_MAGIC);
            for (int slot = 0; slot < slots; slot++) {
                publish(slot);
            }
        }
        return address(directory);
    }

    /** Writes a slot's entry into the directory, then the count of registrations and slots that says it changed. */
    private void publish(int slot) {
        int entry = DIRECTORY_HEADER + slot * DIRECTORY_ENTRY;
        LONGS.setVolatile(directory, entry, tids[slot]);
        LONGS.setVolatile(directory, entry + 8, address(page(slot)) + base(slot));
        LONGS.setVolatile(directory, 16, (long) slots);
        LONGS.setRelease(directory, 8, (long) registrations);
    }

    private static long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }

    /** The kernel id of the thread that holds {@code slot} (0: none yet). */
    public long tid(int slot) {
        return (long) LONGS.getVolatile(page(slot), base(slot) + 8);
    }

    /** Slots given out so far (some may be free again). */
    public synchronized int slots() {
        return slots;
    }

    /** A number that changes whenever a slot is given to a thread. */
    public int registrations() {
        return registrations;
    }

    /** Threads that wanted a slot when all were held. */
    public int refused() {
        return refused;
    }
}
