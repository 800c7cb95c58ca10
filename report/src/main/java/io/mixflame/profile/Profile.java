package io.mixflame.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * An immutable set of distinct stacks, each with its number of samples and their weight.
 *
 * <p>Frames are stored once in a table and stacks refer to them by index, so a profile's size grows with
 * its distinct stacks and frames, never with the number of samples. Build one with {@link ProfileAccumulator}.
 */
public final class Profile {

    /**
     * One distinct stack.
     *
     * @param frameIds    indexes into {@link #frames()}, root first; do not modify
     * @param samples     how many samples had exactly this stack
     * @param weightNanos the time those samples stand for, in nanoseconds (0 where the engine has no weight)
     */
    public record Stack(int[] frameIds, long samples, long weightNanos) {
        /** Number of frames in the stack. */
        public int depth() {
            return frameIds.length;
        }
    }

    private final List<Frame> frames;
    private final List<Stack> stacks;
    private final ProfileInfo info;
    private final long totalSamples;
    private final long totalWeightNanos;
    private final SampleTimes times;

    Profile(List<Frame> frames, List<Stack> stacks, ProfileInfo info) {
        this(frames, stacks, info, SampleTimes.NONE);
    }

    Profile(List<Frame> frames, List<Stack> stacks, ProfileInfo info, SampleTimes times) {
        this.frames = List.copyOf(frames);
        this.stacks = List.copyOf(stacks);
        this.info = Objects.requireNonNull(info, "info");
        this.times = Objects.requireNonNull(times, "times");
        long samples = 0;
        long weight = 0;
        for (Stack s : this.stacks) {
            samples = Counts.add(samples, s.samples());
            weight = Counts.add(weight, s.weightNanos());
        }
        this.totalSamples = samples;
        this.totalWeightNanos = weight;
    }

    /** An empty profile. */
    public static Profile empty(ProfileInfo info) {
        return new Profile(List.of(), List.of(), info);
    }

    /** The frame table that {@link Stack#frameIds()} index into. */
    public List<Frame> frames() {
        return frames;
    }

    /** The distinct stacks, in no particular order. */
    public List<Stack> stacks() {
        return stacks;
    }

    /** When the samples were taken, where that was recorded; {@link SampleTimes#NONE} otherwise. */
    public SampleTimes times() {
        return times;
    }

    /**
     * Every sample as runs of one stack: the entries of {@link #times()} in time order (never more of a stack's
     * samples than it has), then, stack by stack, the samples left without a time at {@link SampleTimes#NO_TIME} —
     * what writers that give each sample a time go through.
     */
    public SampleTimes sampleRuns() {
        long[] left = new long[stacks.size()];
        for (int s = 0; s < left.length; s++) {
            left[s] = stacks.get(s).samples();
        }
        int n = times.size() + left.length;
        long[] at = new long[n];
        int[] of = new int[n];
        long[] counts = new long[n];
        int k = 0;
        for (int i = 0; i < times.size(); i++) {
            int s = times.stack(i);
            long count = Math.min(times.count(i), left[s]);
            if (count > 0) {
                left[s] -= count;
                at[k] = times.epochNanos(i);
                of[k] = s;
                counts[k++] = count;
            }
        }
        for (int s = 0; s < left.length; s++) {
            // A stack of no samples (a weight alone) still gets its run.
            if (left[s] > 0 || stacks.get(s).samples() == 0) {
                at[k] = SampleTimes.NO_TIME;
                of[k] = s;
                counts[k++] = left[s];
            }
        }
        return new SampleTimes(Arrays.copyOf(at, k), Arrays.copyOf(of, k),
                Arrays.copyOf(counts, k), times.resolutionNanos());
    }

    /** The same stacks with these times (their stack indexes are this profile's). */
    public Profile withTimes(SampleTimes newTimes) {
        return new Profile(frames, stacks, info, newTimes);
    }

    /** Who made this profile, when, and with which settings. */
    public ProfileInfo info() {
        return info;
    }

    /** The frame at an index of the frame table. */
    public Frame frame(int id) {
        return frames.get(id);
    }

    /** The frames of one stack, root first. */
    public Frame[] framesOf(Stack stack) {
        int[] ids = stack.frameIds();
        Frame[] result = new Frame[ids.length];
        for (int i = 0; i < ids.length; i++) {
            result[i] = frames.get(ids[i]);
        }
        return result;
    }

    /** Sum of the samples of every stack, at most {@link Long#MAX_VALUE}. */
    public long totalSamples() {
        return totalSamples;
    }

    /** Sum of the weights of every stack, in nanoseconds, at most {@link Long#MAX_VALUE}. */
    public long totalWeightNanos() {
        return totalWeightNanos;
    }

    /**
     * The same stacks, each weighing its samples times {@code nanosPerSample} (at most {@link Long#MAX_VALUE}):
     * for profiles read from a format that counts samples only.
     */
    public Profile withSampleWeight(long nanosPerSample) {
        List<Stack> weighed = new ArrayList<>(stacks.size());
        for (Stack s : stacks) {
            weighed.add(new Stack(s.frameIds(), s.samples(), Counts.multiply(s.samples(), nanosPerSample)));
        }
        return new Profile(frames, weighed, info, times);
    }

    /**
     * The same stacks, each counting its weight as its samples (async-profiler's {@code total}): for outputs that
     * count samples only (collapsed, HTML), so that an allocation profile counts bytes and a lock profile nanoseconds.
     * Times are dropped, as they count samples.
     */
    public Profile weightsAsSamples() {
        List<Stack> counted = new ArrayList<>(stacks.size());
        for (Stack s : stacks) {
            counted.add(new Stack(s.frameIds(), s.weightNanos(), s.weightNanos()));
        }
        return new Profile(frames, counted, info);
    }

    /** The same stacks described by other info. */
    public Profile withInfo(ProfileInfo newInfo) {
        return new Profile(frames, stacks, newInfo, times);
    }
}
