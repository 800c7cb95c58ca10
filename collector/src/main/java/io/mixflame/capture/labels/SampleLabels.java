package io.mixflame.capture.labels;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.profile.Frame;

/**
 * The sampler's side of labels: puts the label frames in force on a thread at the moment of a sample into the
 * sample's stack, right after its thread's root frame (or first, without one), one {@code [key=value]} frame per
 * label in the order of the keys.
 *
 * <p>Used by one sampling thread: it keeps its own map from thread ids to log slots, made anew when a thread gets a
 * slot, and the frames of each set, made at a set's first sample.
 */
public final class SampleLabels implements SampleLabeler {
    /** In place of the labels of a sample whose thread changed them so often since that the log no longer says. */
    public static final Frame UNKNOWN = Frame.label("labels", "unknown");
    /** In place of the labels of a sample whose set was past the bound on distinct sets. */
    public static final Frame OTHER = Frame.label("labels", "other");

    private static final Frame[] NO_FRAMES = new Frame[0];
    private static final Frame[] UNKNOWN_FRAMES = {UNKNOWN};

    private final LabelSets sets;
    private final LabelLog log;
    private final LongKeyedCache<Integer> slots = new LongKeyedCache<>(8192);
    private int registrationsSeen = -1;
    private final SetFrames setFrames;
    private final LabelInsertion insertion = new LabelInsertion();
    private long unknown;

    /** Reads what {@code recorder} writes. */
    public SampleLabels(LabelRecorder recorder) {
        this.sets = recorder.sets();
        this.log = recorder.log();
        this.setFrames = new SetFrames(sets);
    }

    /**
     * The stack {@code frames[0..depth)} with the labels thread {@code tid} had at {@code nanoTime} (the clock of
     * {@link System#nanoTime()}) after its first frame when {@code threadRoot}, else first; the result is in
     * {@link #frames()}, its depth returned. Without labels the frames are copied as they are.
     */
    @Override
    public int label(long tid, long nanoTime, Frame[] frames, int depth, boolean threadRoot) {
        return insertion.insert(labelsAt(tid, nanoTime), frames, depth, threadRoot);
    }

    @Override
    public Frame[] frames() {
        return insertion.frames();
    }

    /** The label frames thread {@code tid} had at {@code nanoTime}, in the order of their keys; do not modify. */
    public Frame[] labelsAt(long tid, long nanoTime) {
        int slot = slotOf(tid);
        if (slot < 0) {
            return NO_FRAMES;
        }
        int set = log.setAt(slot, nanoTime);
        if (log.tid(slot) != tid) {
            return NO_FRAMES; // the slot went to another thread while it was read
        }
        if (set == LabelLog.UNKNOWN) {
            unknown++;
            return UNKNOWN_FRAMES;
        }
        return framesOf(set);
    }

    @Override
    public long unknown() {
        return unknown;
    }

    private int slotOf(long tid) {
        if (tid <= 0) {
            return -1;
        }
        Integer slot = slots.get(tid);
        if (slot != null && log.tid(slot) == tid) {
            return slot;
        }
        // Made anew only when a thread it does not know (or no longer knows) asks and some thread got a slot since:
        // a service starting a thread per request registers often, and most samples are of threads already known.
        int registrations = log.registrations();
        if (registrations == registrationsSeen) {
            return -1;
        }
        registrationsSeen = registrations;
        slots.clear();
        int n = log.slots();
        for (int i = 0; i < n; i++) {
            long owner = log.tid(i);
            if (owner > 0) {
                slots.put(owner, i);
            }
        }
        slot = slots.get(tid);
        return slot == null ? -1 : slot;
    }

    private Frame[] framesOf(int set) {
        return setFrames.of(set);
    }
}
