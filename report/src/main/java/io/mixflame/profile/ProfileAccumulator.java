package io.mixflame.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Merges sampled stacks into a bounded profile: identical stacks share one entry, frames are interned in a
 * table, and the number of distinct stacks and frames is capped. Once a cap is reached, samples whose stack
 * is not already known are counted under a single {@link Frame#OVERFLOW} stack and the owner is told once.
 *
 * <p>Every sum (per stack, totals, weights) stops at {@link Long#MAX_VALUE} rather than wrapping
 * ({@link Counts#add}).
 *
 * <p>When asked ({@link #recordTimes}), it also keeps when each stack's samples were taken, in a bounded
 * {@link SampleTimeline}; a profile's stacks then come in the order they were first seen, which the times refer to.
 *
 * <p>Thread-safe: engines add from their own thread while another thread takes snapshots. A sample whose
 * stack is already known allocates nothing, and touches no collection of the JDK's ({@link StackCountTable} says why).
 */
public final class ProfileAccumulator implements SampleSink {

    /** Default cap on distinct stacks. */
    public static final int DEFAULT_MAX_STACKS = 100_000;
    /** Default cap on distinct frames. */
    public static final int DEFAULT_MAX_FRAMES = 200_000;

    private final int maxStacks;
    private final int maxFrames;
    private final Consumer<String> onFirstOverflow;

    private final FrameIdTable frameIds = new FrameIdTable();
    /** A direct-mapped cache of frame ids by the frame object's identity, in front of {@link #frameIds}. */
    private static final int IDENTITY_SLOTS = 4096;
    private final Frame[] identityKeys = new Frame[IDENTITY_SLOTS];
    private final int[] identityIds = new int[IDENTITY_SLOTS];
    private final List<Frame> frames = new ArrayList<>();
    private final StackCountTable counts = new StackCountTable();
    private int[] probe = new int[64];
    private SampleTimeline timeline;
    private boolean overflowReported;
    private long overflowSamples;
    private long totalSamples;
    private long frameNameChars;
    private long stackFrames;

    /** An accumulator with the default caps that does not report overflow. */
    public ProfileAccumulator() {
        this(DEFAULT_MAX_STACKS, DEFAULT_MAX_FRAMES, message -> { });
    }

    /**
     * @param maxStacks       cap on distinct stacks (at least 1)
     * @param maxFrames       cap on distinct frames (at least 1)
     * @param onFirstOverflow told once, with a one-line message, when a cap is first reached
     */
    public ProfileAccumulator(int maxStacks, int maxFrames, Consumer<String> onFirstOverflow) {
        if (maxStacks < 1 || maxFrames < 1) {
            throw new IllegalArgumentException("caps must be positive");
        }
        this.maxStacks = maxStacks;
        this.maxFrames = maxFrames;
        this.onFirstOverflow = onFirstOverflow;
    }

    /**
     * From now on, keeps when samples were taken (those added with a time): the profile's {@link Profile#times()}.
     */
    public synchronized void recordTimes() {
        timeline = new SampleTimeline();
    }

    /**
     * Adds samples of one stack.
     *
     * @param rootFirst   the frames, root first; the array is not kept
     * @param samples     number of samples (at least 1 for a real sample)
     * @param weightNanos time the samples stand for, or 0
     * @return the index the stack will have in a snapshot's {@link Profile#stacks()}
     */
    public synchronized int add(Frame[] rootFirst, long samples, long weightNanos) {
        return stack(rootFirst, rootFirst.length, samples, weightNanos);
    }

    @Override
    public synchronized void add(Frame[] rootFirst, int depth, long samples, long weightNanos) {
        stack(rootFirst, depth, samples, weightNanos);
    }

    @Override
    public synchronized void add(Frame[] rootFirst, int depth, long samples, long weightNanos, long epochNanos) {
        int entry = stack(rootFirst, depth, samples, weightNanos);
        if (timeline != null) {
            timeline.add(entry, epochNanos, samples);
        }
    }

    /** Counts the samples; returns the stack's index. */
    private int stack(Frame[] rootFirst, int depth, long samples, long weightNanos) {
        totalSamples = Counts.add(totalSamples, samples);
        int[] ids = probe.length >= depth ? probe : new int[Math.max(depth, probe.length * 2)];
        probe = ids;
        for (int i = 0; i < depth; i++) {
            int id = frameId(rootFirst[i]);
            if (id < 0) {
                return addOverflow(samples, weightNanos, "distinct frames");
            }
            ids[i] = id;
        }
        int hash = StackCountTable.hash(ids, depth);
        int entry = counts.find(ids, depth, hash);
        if (entry < 0) {
            if (counts.size() >= maxStacks) {
                return addOverflow(samples, weightNanos, "distinct stacks");
            }
            stackFrames += depth;
            entry = counts.add(ids, depth, hash);
        }
        counts.count(entry, samples, weightNanos);
        return entry;
    }

    @Override
    public synchronized void rename(Frame from, Frame to) {
        int id = frameIds.get(from);
        if (id < 0 || from.equals(to)) {
            return;
        }
        frameNameChars += to.name().length() - frames.get(id).name().length();
        frames.set(id, to);
        // A frame already counted under the new name keeps its own id: the two then show the same name, which every
        // output adds up as it adds up equal stacks.
        if (frameIds.get(to) < 0) {
            frameIds.put(to, id);
        }
    }

    /** Adds every stack of another profile (reading a file, merging profiles); its times are not kept. */
    public void addAll(Profile profile) {
        for (Profile.Stack s : profile.stacks()) {
            add(profile.framesOf(s), s.samples(), s.weightNanos());
        }
    }

    /** Number of distinct stacks so far. */
    public synchronized int distinctStacks() {
        return counts.size();
    }

    /** Number of distinct frames so far. */
    public synchronized int distinctFrames() {
        return frames.size();
    }

    /** Characters of the names of the distinct frames so far: what the frame table holds. */
    public synchronized long frameNameChars() {
        return frameNameChars;
    }

    /** Frames of the distinct stacks so far, summed: how many frame ids the stacks hold. */
    public synchronized long stackFrames() {
        return stackFrames;
    }

    /** Samples added since the last reset, overflow included. */
    public synchronized long totalSamples() {
        return totalSamples;
    }

    /** Samples counted under {@link Frame#OVERFLOW} since the last reset. */
    public synchronized long overflowSamples() {
        return overflowSamples;
    }

    /** An immutable copy of what has been added so far. */
    public synchronized Profile snapshot(ProfileInfo info) {
        Profile.Stack[] byIndex = new Profile.Stack[counts.size()];
        for (int e = 0; e < byIndex.length; e++) {
            byIndex[e] = new Profile.Stack(counts.ids(e), counts.samples(e), counts.weight(e));
        }
        List<Profile.Stack> stacks = Arrays.asList(byIndex);
        ProfileInfo described = overflowSamples == 0 ? info
                : info.withNote(overflowSamples + " samples over the profile's bound of " + maxStacks
                        + " stacks / " + maxFrames + " frames are counted as [overflow]");
        return new Profile(frames, stacks, described, timeline == null ? SampleTimes.NONE : timeline.freeze());
    }

    /** A snapshot, after which the accumulator starts empty (for profiles written one period at a time). */
    public synchronized Profile snapshotAndReset(ProfileInfo info) {
        Profile p = snapshot(info);
        frameIds.clear();
        frames.clear();
        counts.clear();
        Arrays.fill(identityKeys, null);
        overflowSamples = 0;
        totalSamples = 0;
        frameNameChars = 0;
        stackFrames = 0;
        overflowReported = false;
        if (timeline != null) {
            recordTimes();
        }
        return p;
    }

    private int frameId(Frame frame) {
        // Engines hand the same Frame object for the same code sample after sample (their namers keep them): an
        // identity look-up first spares hashing and comparing the name of every frame of every sample.
        int slot = System.identityHashCode(frame) & (IDENTITY_SLOTS - 1);
        if (identityKeys[slot] == frame) {
            return identityIds[slot];
        }
        int id = frameIdByValue(frame);
        if (id >= 0) {
            identityKeys[slot] = frame;
            identityIds[slot] = id;
        }
        return id;
    }

    private int frameIdByValue(Frame frame) {
        int id = frameIds.get(frame);
        if (id >= 0) {
            return id;
        }
        if (frames.size() >= maxFrames) {
            return -1;
        }
        int newId = frames.size();
        frameNameChars += frame.name().length();
        frames.add(frame);
        frameIds.put(frame, newId);
        return newId;
    }

    private int addOverflow(long samples, long weightNanos, String what) {
        overflowSamples = Counts.add(overflowSamples, samples);
        if (!overflowReported) {
            overflowReported = true;
            onFirstOverflow.accept("profile reached its bound of " + (what.endsWith("frames") ? maxFrames : maxStacks)
                    + " " + what + "; further new stacks are counted as [overflow]");
        }
        // The overflow stack itself must always fit, so it bypasses the caps.
        int id = frameIds.get(Frame.OVERFLOW);
        if (id < 0) {
            id = frames.size();
            frameNameChars += Frame.OVERFLOW.name().length();
            frames.add(Frame.OVERFLOW);
            frameIds.put(Frame.OVERFLOW, id);
        }
        // Once a cap is reached every new stack comes here: the probe is reused, as for any sample.
        probe[0] = id;
        int hash = StackCountTable.hash(probe, 1);
        int entry = counts.find(probe, 1, hash);
        if (entry < 0) {
            entry = counts.add(probe, 1, hash);
        }
        counts.count(entry, samples, weightNanos);
        return entry;
    }
}
