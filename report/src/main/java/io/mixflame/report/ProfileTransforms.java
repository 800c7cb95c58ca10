package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;

/** Profiles derived from others: stacks filtered by frame name, stacks reversed. The input is not changed. */
public final class ProfileTransforms {

    private ProfileTransforms() {
    }

    /**
     * The stacks {@code filter} keeps, frames matched by their names in {@code style}, with the same info.
     *
     * @return {@code profile} itself when the filter keeps every stack
     */
    public static Profile filter(Profile profile, FrameFilter filter, FrameStyle style) {
        if (filter.keepsAll()) {
            return profile;
        }
        ProfileAccumulator acc = unbounded();
        int[] newIndex = new int[profile.stacks().size()];
        for (int i = 0; i < newIndex.length; i++) {
            Profile.Stack stack = profile.stacks().get(i);
            Frame[] frames = profile.framesOf(stack);
            newIndex[i] = filter.keeps(frames, style) ? acc.add(frames, stack.samples(), stack.weightNanos()) : -1;
        }
        return acc.snapshot(profile.info()).withTimes(profile.times().remap(newIndex));
    }

    /**
     * The same stacks leaf first. A thread's root frame ({@link FrameType#THREAD}) stays first so stacks
     * remain grouped by thread, as async-profiler's reversed output does, and the {@link FrameType#LABEL} frames after
     * it stay there too, so that stacks are grouped by label as well and every output finds them where it looks.
     */
    public static Profile reverse(Profile profile) {
        return mapped(profile, frames -> {
            for (int i = LabelFrames.rootEnd(frames), j = frames.length - 1; i < j; i++, j--) {
                Frame t = frames[i];
                frames[i] = frames[j];
                frames[j] = t;
            }
            return frames;
        });
    }

    /**
     * The stacks with their trace spans' label frames ({@code [span_id=…]}, {@code [trace_id=…]},
     * {@code [span_name=…]}) taken out, for the outputs that keep only names: ids would make every request's stacks
     * its own. With {@code asFrames}, each span becomes one {@code [span=NAME]} label frame in their place (its local
     * root's name; its id where it has none; {@code other} past the bound).
     *
     * @return {@code profile} itself when no stack has a span
     */
    public static Profile spans(Profile profile, boolean asFrames) {
        boolean any = false;
        for (Frame f : profile.frames()) {
            any |= SpanLabels.isSpanFrame(f);
        }
        if (!any) {
            return profile;
        }
        return mapped(profile, frames -> SpanLabels.replaced(frames, LabelFrames.rootEnd(frames), asFrames));
    }

    /** Every stack's frames (a copy, root first) as {@code map} makes them, with each stack's counts and times. */
    private static Profile mapped(Profile profile, java.util.function.UnaryOperator<Frame[]> map) {
        ProfileAccumulator acc = unbounded();
        int[] newIndex = new int[profile.stacks().size()];
        for (int s = 0; s < newIndex.length; s++) {
            Profile.Stack stack = profile.stacks().get(s);
            newIndex[s] = acc.add(map.apply(profile.framesOf(stack)), stack.samples(), stack.weightNanos());
        }
        return acc.snapshot(profile.info()).withTimes(profile.times().remap(newIndex));
    }

    /** Filters, then reverses if asked; the title is not the profile's business and is left to the writer. */
    public static Profile apply(Profile profile, ReportOptions options) {
        Profile filtered = filter(profile, options.filter(), options.style());
        return options.reverse() ? reverse(filtered) : filtered;
    }

    // A derived profile holds no more than its source, which was already bounded when it was made.
    private static ProfileAccumulator unbounded() {
        return new ProfileAccumulator(Integer.MAX_VALUE, Integer.MAX_VALUE, m -> { });
    }
}
