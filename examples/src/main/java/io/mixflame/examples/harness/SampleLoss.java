package io.mixflame.examples.harness;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * mixflame's count of its samples and of those it missed, from its {@code # note:} line
 * ({@code 943 samples, 0 lost, 2 dropped, …}): the kernel delivered {@code samples}, and lost {@code lost} more to a
 * full ring buffer; of those delivered, mixflame dropped {@code dropped} when its pool of buffers was empty.
 *
 * @param samples samples the kernel delivered
 * @param lost    samples the kernel lost before delivering them
 * @param dropped delivered samples mixflame did not walk
 */
record SampleLoss(long samples, long lost, long dropped) {
    private static final Pattern COUNTS = Pattern.compile("(\\d+) samples, (\\d+) lost, (\\d+) dropped");

    /** The counts in the first note that has them, or empty (an engine that reports none, such as jfr). */
    static Optional<SampleLoss> fromNotes(List<String> notes) {
        for (String note : notes) {
            Matcher m = COUNTS.matcher(note);
            if (m.find()) {
                return Optional.of(new SampleLoss(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3))));
            }
        }
        return Optional.empty();
    }

    /** The counts of two runs together. */
    SampleLoss plus(SampleLoss other) {
        return new SampleLoss(samples + other.samples, lost + other.lost, dropped + other.dropped);
    }

    /**
     * The share of the samples taken that never reached the profile: (lost + dropped) / (delivered + lost), since
     * lost samples were never delivered and dropped ones were; 0 without samples.
     */
    double missedShare() {
        long taken = samples + lost;
        return taken == 0 ? 0 : (double) (lost + dropped) / taken;
    }
}
