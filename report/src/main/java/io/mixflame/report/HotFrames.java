package io.mixflame.report;

import io.mixflame.profile.Counts;
import io.mixflame.profile.Profile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a profile's samples were spent, per frame name: self samples (the frame was the leaf) and total
 * samples (the frame was anywhere on the stack, counted once per stack even when it recurses). Frames are named
 * in async-profiler's default style ({@link FrameStyle#DEFAULT}); frames of one such name but different kinds (a
 * method interpreted in some samples, compiled in others) count as one.
 *
 * <p>Threads and labels ({@code [endpoint=/checkout]}) are counted as frames too, at the root end of their stacks:
 * their total is the share of samples taken on that thread or under that label, and they have self samples only
 * where a stack ends in them (a sample of nothing but its thread and labels).
 */
public final class HotFrames {

    /**
     * One frame name's share.
     *
     * @param name  the frame's name
     * @param self  samples in which it was the leaf
     * @param total samples in which it was on the stack
     */
    public record Entry(String name, long self, long total) {
    }

    private static final Comparator<Entry> HOTTEST_FIRST = Comparator.comparingLong(Entry::self).reversed()
            .thenComparing(Comparator.comparingLong(Entry::total).reversed())
            .thenComparing(Entry::name);

    private final List<Entry> entries;
    private final long totalSamples;

    private HotFrames(List<Entry> entries, long totalSamples) {
        this.entries = List.copyOf(entries);
        this.totalSamples = totalSamples;
    }

    /** Counts every frame name of the profile. */
    public static HotFrames of(Profile profile) {
        // Frame ids -> name ids, so that "once per stack" can be checked with a stamp per name.
        Map<String, Integer> nameIds = new HashMap<>();
        List<String> names = new ArrayList<>();
        int[] nameOfFrame = new int[profile.frames().size()];
        for (int i = 0; i < nameOfFrame.length; i++) {
            nameOfFrame[i] = nameIds.computeIfAbsent(FrameStyle.DEFAULT.name(profile.frame(i)), n -> {
                names.add(n);
                return names.size() - 1;
            });
        }
        long[] self = new long[names.size()];
        long[] total = new long[names.size()];
        int[] lastStack = new int[names.size()];
        int stackNumber = 0;
        for (Profile.Stack stack : profile.stacks()) {
            stackNumber++;
            int[] ids = stack.frameIds();
            for (int id : ids) {
                int name = nameOfFrame[id];
                if (lastStack[name] != stackNumber) {
                    lastStack[name] = stackNumber;
                    total[name] = Counts.add(total[name], stack.samples());
                }
            }
            if (ids.length > 0) {
                int leaf = nameOfFrame[ids[ids.length - 1]];
                self[leaf] = Counts.add(self[leaf], stack.samples());
            }
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (total[i] > 0) {
                entries.add(new Entry(names.get(i), self[i], total[i]));
            }
        }
        entries.sort(HOTTEST_FIRST);
        return new HotFrames(entries, profile.totalSamples());
    }

    /** Every frame name that was sampled, by self samples (then total, then name), hottest first. */
    public List<Entry> entries() {
        return entries;
    }

    /** The profile's samples, the 100% of the shares. */
    public long totalSamples() {
        return totalSamples;
    }
}
