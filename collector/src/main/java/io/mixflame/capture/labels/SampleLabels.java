package io.mixflame.capture.labels;

import io.mixflame.cache.LongKeyedCache;
import io.mixflame.profile.Frame;
import java.util.Arrays;

/**
 * This JVM's labels as its own engines see them, read in place from the log: puts the label frames in force on a
 * thread at the moment of a sample into the sample's stack, right after its thread's root frame (or first, without one), one {@code [key=value]} frame per
 * label in the order of the keys.
 *
 * <p>{@link #setAt} keeps its own map from thread ids to log slots, made anew when a thread gets a slot; {@link #label}
 * the frames of each set, made at a set's first sample: each used by one thread.
 */
public final class SampleLabels extends InsertingLabeler {
    /** In place of the labels of a sample whose thread changed them so often since that the log no longer says. */
    public static final Frame UNKNOWN = Frame.label("labels", "unknown");
    /** In place of the labels of a sample whose set was past the bound on distinct sets. */
    public static final Frame OTHER = Frame.label("labels", "other");

    private static final Frame[] NO_FRAMES = new Frame[0];

    private final LabelSets sets;
    private final LabelLog log;
    private final LongKeyedCache<Integer> slots = new LongKeyedCache<>(8192);
    private int registrationsSeen = -1;
    private final SetFrames setFrames;
    /** Where spans are recorded, their frames; else null. */
    private final SpanFrames spans;
    private final boolean spanEndpoints;
    private static final String ENDPOINT = "endpoint";

    /** Where a set id holds the number of its sample's span: sets are fewer than {@code 1 << SPAN_SHIFT}. */
    static final int SPAN_SHIFT = 16;
    private static final int SET_MASK = (1 << SPAN_SHIFT) - 1;

    /** Reads what {@code recorder} writes. */
    public SampleLabels(LabelRecorder recorder) {
        this.sets = recorder.sets();
        this.log = recorder.log();
        this.setFrames = new SetFrames(sets);
        this.spans = recorder.spansRecorded() ? new SpanFrames(recorder.spanTable(), recorder.spansPerPeriod(),
                recorder.rootSpans(), recorder.spanIds()) : null;
        this.spanEndpoints = recorder.spanEndpoints();
    }

    /**
     * The set thread {@code tid} had at {@code nanoTime}, with the number of the span it was in (where spans are
     * recorded) in the bits above {@link #SPAN_SHIFT}.
     */
    @Override
    public int setAt(long tid, long nanoTime) {
        int slot = slotOf(tid);
        if (slot < 0) {
            return LabelSets.NONE;
        }
        long entry = log.entryAt(slot, nanoTime);
        if (log.tid(slot) != tid) {
            return LabelSets.NONE; // the slot went to another thread while it was read
        }
        if (entry == LabelLog.UNKNOWN) {
            return counted(LabelLog.UNKNOWN);
        }
        int set = (int) entry;
        int handle = (int) (entry >>> 32);
        if (spans == null || handle == SpanTable.NONE) {
            return set;
        }
        return set | spans.intern(handle) << SPAN_SHIFT;
    }

    /**
     * The label frames thread {@code tid} had at {@code nanoTime} (the clock of {@link System#nanoTime()}), in the
     * order of their keys; do not modify.
     */
    public Frame[] labelsAt(long tid, long nanoTime) {
        return framesOf(setAt(tid, nanoTime));
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

    @Override
    Frame[] framesOf(int set) {
        return set == LabelLog.UNKNOWN ? UNKNOWN_FRAMES : setFrames.of(set & SET_MASK);
    }

    @Override
    Frame[] spanFramesOf(int set) {
        if (spans == null || set == LabelLog.UNKNOWN) {
            return super.spanFramesOf(set);
        }
        int labels = set & SET_MASK;
        // The request's endpoint from its span only where the application's own labels (mixflame's weaving of its
        // server) have none.
        boolean endpoint = spanEndpoints && (!sets.known(labels)
                || Arrays.binarySearch(sets.keys(labels), ENDPOINT) < 0);
        return spans.frames(set >>> SPAN_SHIFT, endpoint);
    }

    /** Spans interned, past the bound, and gone before their samples were taken: for the cost note; null without. */
    public long[] spanCounts() {
        return spans == null ? null : new long[] {spans.interned(), spans.overflowed(), spans.gone()};
    }
}
