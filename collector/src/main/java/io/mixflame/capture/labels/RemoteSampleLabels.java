package io.mixflame.capture.labels;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.process.ProcessMemory;
import io.mixflame.profile.Frame;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A helper process's labeler: reads the sampled JVM's label log through its memory — the directory when a thread it
 * does not know comes, then one read of the thread's slot per sample taken after its last copy — and marks each
 * sample with the id of the set in force, {@code [labels=#ID]}, which the JVM turns into the set's frames as the
 * samples arrive (the helper has the ids, not the labels). A copy of a slot is read while its thread may write: the
 * latest changes, which a sample's time almost always falls after, are the last to be reused (a thread would have
 * to make 256 changes during one read), and a slot given to another thread meanwhile is caught by its tid. The copy
 * is read as a sample is taken off the kernel's buffer, not as it is walked ({@link SampleLabeler}): a helper whose
 * walk fell behind (at its start, before its code is compiled and its symbol tables read) labelled a run of samples
 * unknown.
 */
final class RemoteSampleLabels extends InsertingLabeler {
    /** The key of a set id's frame: the profiler's own, which the application may not set ({@link LabelKeys}). */
    static final String ID_KEY = "labels";
    /** The prefix of the value of a set id's frame. */
    static final String ID_PREFIX = "#";

    private static final Frame[] NO_FRAMES = new Frame[0];
    private static final int MAX_IDS = 4096;
    /**
     * Directory entries read at most: the agent's log has 4 096 slots; a count past this bound is not a log's, and
     * reading it would make a buffer of gigabytes.
     */
    static final int MAX_DIRECTORY_ENTRIES = 65_536;
    /**
     * How long after one look at the directory's header the next may be taken for a thread without a slot: most
     * sampled threads never set labels (GC and compiler threads, and all but a few under {@code labels=api}), and
     * a look for each of their samples was a read of the other process per sample (under Wine a round trip through
     * wineserver). A thread that gets its slot is found up to this much later.
     */
    static final long DIRECTORY_RECHECK_NANOS = 1_000_000L;

    private final ProcessMemory memory;
    private final long directory;
    private final ByteBuffer header = ByteBuffer.allocateDirect(LabelLog.DIRECTORY_HEADER).order(ByteOrder.nativeOrder());
    private final ByteBuffer slot = ByteBuffer.allocateDirect(LabelLog.SLOT).order(ByteOrder.nativeOrder());
    private ByteBuffer entries;
    private final LongKeyedCache<Long> slots = new LongKeyedCache<>(8192);
    private long registrationsSeen = -1;
    private long nextDirectoryLook = Long.MIN_VALUE;
    private final Frame[][] idFrames = new Frame[MAX_IDS][];
    /** The thread whose slot {@link #slot} holds (0: none), and this process's clock when it was read. */
    private long copiedTid;
    private long copiedAt;

    RemoteSampleLabels(ProcessMemory memory, long directory) {
        this.memory = memory;
        this.directory = directory;
    }

    @Override
    public int setAt(long tid, long nanoTime) {
        if (tid <= 0) {
            return LabelSets.NONE;
        }
        // The copy already read serves every sample of its thread taken before it was read: the change in force then
        // was published before the sample's code ran. An engine looks up a drain's samples together, each thread's
        // in a row: one read per thread and drain rather than one per sample.
        if (tid != copiedTid || nanoTime - copiedAt >= 0) {
            copiedTid = 0;
            long readAt = System.nanoTime();
            if (!copySlot(tid, nanoTime)) {
                return LabelSets.NONE;
            }
            copiedTid = tid;
            copiedAt = readAt;
        }
        return counted(LabelLog.setAt(slot, 0, nanoTime));
    }

    /** Copies {@code tid}'s slot into {@link #slot}; whether it has one. */
    private boolean copySlot(long tid, long nanoTime) {
        Long address = slots.get(tid);
        if (address != null && readSlot(address, tid)) {
            return true;
        }
        if (nanoTime < nextDirectoryLook) {
            return false;
        }
        nextDirectoryLook = nanoTime + DIRECTORY_RECHECK_NANOS;
        if (!readDirectory()) {
            return false;
        }
        address = slots.get(tid);
        return address != null && readSlot(address, tid);
    }

    /** Reads the slot at {@code address}; whether it is {@code tid}'s. */
    private boolean readSlot(long address, long tid) {
        return memory.read(address, slot, 0, LabelLog.SLOT) == LabelLog.SLOT && LabelLog.tidAt(slot, 0) == tid;
    }

    /** Reads the directory again when some thread got a slot since; whether the map may have changed. */
    private boolean readDirectory() {
        if (memory.read(directory, header, 0, LabelLog.DIRECTORY_HEADER) != LabelLog.DIRECTORY_HEADER
                || header.getLong(0) != LabelLog.DIRECTORY_MAGIC) {
            return false;
        }
        long registrations = header.getLong(8);
        if (registrations == registrationsSeen) {
            return false;
        }
        int count = (int) Math.min(Math.max(0, header.getLong(16)), MAX_DIRECTORY_ENTRIES);
        int bytes = count * LabelLog.DIRECTORY_ENTRY;
        if (entries == null || entries.capacity() < bytes) {
            entries = ByteBuffer.allocateDirect(Math.max(bytes, 1024)).order(ByteOrder.nativeOrder());
        }
        if (memory.read(directory + LabelLog.DIRECTORY_HEADER, entries, 0, bytes) != bytes) {
            return false;
        }
        registrationsSeen = registrations;
        slots.clear();
        for (int i = 0; i < count; i++) {
            long owner = entries.getLong(i * LabelLog.DIRECTORY_ENTRY);
            if (owner > 0) {
                slots.put(owner, entries.getLong(i * LabelLog.DIRECTORY_ENTRY + 8));
            }
        }
        return true;
    }

    @Override
    Frame[] framesOf(int set) {
        if (set == LabelLog.UNKNOWN) {
            return UNKNOWN_FRAMES;
        }
        if (set == LabelSets.NONE) {
            return NO_FRAMES;
        }
        if (set < 0 || set >= MAX_IDS) {
            return UNKNOWN_FRAMES;
        }
        Frame[] made = idFrames[set];
        if (made == null) {
            made = new Frame[] {Frame.label(RemoteSampleLabels.ID_KEY, ID_PREFIX + set)};
            idFrames[set] = made;
        }
        return made;
    }
}
