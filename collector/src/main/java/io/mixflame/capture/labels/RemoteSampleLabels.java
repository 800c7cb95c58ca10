package io.mixflame.capture.labels;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.process.ProcessMemory;
import io.mixflame.profile.Frame;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A helper process's labeler: reads the sampled JVM's label log through its memory — the directory when a thread it
 * does not know comes, then one read of the thread's slot per sample — and marks each sample with the id of the set
 * in force, {@code [labels=#ID]}, which the JVM turns into the set's frames as the samples arrive (the helper has the
 * ids, not the labels). A copy of a slot is read while its thread may write: the latest changes, which a sample's
 * time almost always falls after, are the last to be reused (a thread would have to make 256 changes during one
 * read), and a slot given to another thread meanwhile is caught by its tid.
 */
final class RemoteSampleLabels implements SampleLabeler {
    /** The key of a set id's frame: the profiler's own, which the application may not set ({@link LabelKeys}). */
    static final String ID_KEY = "labels";
    /** The prefix of the value of a set id's frame. */
    static final String ID_PREFIX = "#";

    private static final Frame[] NO_FRAMES = new Frame[0];
    private static final Frame[] UNKNOWN_FRAMES = {SampleLabels.UNKNOWN};
    private static final int MAX_IDS = 4096;
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
    private final LabelInsertion insertion = new LabelInsertion();
    private long unknown;

    RemoteSampleLabels(ProcessMemory memory, long directory) {
        this.memory = memory;
        this.directory = directory;
    }

    @Override
    public int label(long tid, long nanoTime, Frame[] frames, int depth, boolean threadRoot) {
        return insertion.insert(labelsAt(tid, nanoTime), frames, depth, threadRoot);
    }

    @Override
    public Frame[] frames() {
        return insertion.frames();
    }

    @Override
    public long unknown() {
        return unknown;
    }

    private Frame[] labelsAt(long tid, long nanoTime) {
        if (tid <= 0) {
            return NO_FRAMES;
        }
        Long address = slots.get(tid);
        if (address == null || !readSlot(address, tid)) {
            if (nanoTime < nextDirectoryLook) {
                return NO_FRAMES;
            }
            nextDirectoryLook = nanoTime + DIRECTORY_RECHECK_NANOS;
            if (!readDirectory()) {
                return NO_FRAMES;
            }
            address = slots.get(tid);
            if (address == null || !readSlot(address, tid)) {
                return NO_FRAMES;
            }
        }
        int set = LabelLog.setAt(slot, 0, nanoTime);
        if (set == LabelLog.UNKNOWN) {
            unknown++;
            return UNKNOWN_FRAMES;
        }
        return framesOf(set);
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
        int count = (int) Math.min(Math.max(0, header.getLong(16)), Integer.MAX_VALUE / LabelLog.DIRECTORY_ENTRY);
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

    private Frame[] framesOf(int set) {
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
