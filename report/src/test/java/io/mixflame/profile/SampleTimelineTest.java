package io.mixflame.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SampleTimelineTest {

    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    /** Each entry as "time-from-T0-in-ms stack count". */
    private static List<String> entries(SampleTimes times) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            out.add((times.epochNanos(i) - T0) / MS + " " + times.stack(i) + " " + times.count(i));
        }
        return out;
    }

    @Test
    void samplesOfAStackWithinAMillisecondAreOneEntryAndEntriesComeInTimeOrder() {
        SampleTimeline t = new SampleTimeline();
        t.add(0, T0 + 5 * MS, 1);
        t.add(1, T0 + 2 * MS + 300_000, 1);
        t.add(0, T0 + 5 * MS + 999_999, 2);
        t.add(1, T0 + 2 * MS, 1);
        t.add(0, T0 + 3 * MS, 1);

        SampleTimes times = t.freeze();

        assertThat(entries(times)).containsExactly("2 1 2", "3 0 1", "5 0 3");
        assertThat(times.resolutionNanos()).isEqualTo(MS);
    }

    @Test
    void atTheBoundBucketsWidenAndMergeKeepingEverySample() {
        SampleTimeline t = new SampleTimeline(64);
        long added = 0;
        for (int i = 0; i < 1000; i++) {
            t.add(i % 3, T0 + i * MS, 1);
            added++;
        }

        SampleTimes times = t.freeze();

        assertThat(t.size()).isLessThan(64);
        assertThat(times.resolutionNanos()).isGreaterThan(MS).isLessThanOrEqualTo(64 * MS);
        long counted = 0;
        Map<Integer, Long> byStack = new TreeMap<>();
        long last = Long.MIN_VALUE;
        for (int i = 0; i < times.size(); i++) {
            counted += times.count(i);
            byStack.merge(times.stack(i), times.count(i), Long::sum);
            assertThat(times.epochNanos(i)).isGreaterThanOrEqualTo(last);
            last = times.epochNanos(i);
            // Every sample lies in its entry's bucket.
            assertThat(times.epochNanos(i)).isLessThanOrEqualTo(T0 + 999 * MS);
        }
        assertThat(counted).isEqualTo(added);
        assertThat(byStack).containsExactly(Map.entry(0, 334L), Map.entry(1, 333L), Map.entry(2, 333L));
    }

    @Test
    void samplesOlderThanTheFirstByLessThanTheSlackKeepTheirTime() {
        SampleTimeline t = new SampleTimeline();
        t.add(0, T0, 1);
        t.add(0, T0 - 40_000 * MS, 1);

        assertThat(entries(t.freeze())).containsExactly("-40000 0 1", "0 0 1");
    }

    @Test
    void moreStacksThanEntriesStopsRecordingAndKeepsTheTimesHeld() {
        SampleTimeline t = new SampleTimeline(8);
        for (int s = 0; s < 20; s++) {
            t.add(s, T0 + s * MS, 1);
        }

        SampleTimes times = t.freeze();
        assertThat(t.size()).isLessThanOrEqualTo(8);
        long counted = 0;
        for (int i = 0; i < times.size(); i++) {
            counted += times.count(i);
            assertThat(times.epochNanos(i)).as("within the samples' span").isBetween(T0, T0 + 19 * MS);
        }
        assertThat(counted).isBetween(6L, 19L);
    }

    @Test
    void theAccumulatorsTimesReferToItsSnapshotsStacks() {
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.recordTimes();
        Frame a = new Frame("a", FrameType.NATIVE);
        Frame b = new Frame("b", FrameType.NATIVE);
        acc.add(new Frame[] {b}, 1, 2, 10, T0 + 7 * MS);
        acc.add(new Frame[] {a}, 1, 1, 10, T0 + 3 * MS);
        acc.add(new Frame[] {b}, 1, 1, 10, T0 + 9 * MS);
        acc.add(new Frame[] {a}, 1, 1, 10); // no time: counted, not on the timeline

        Profile p = acc.snapshot(new ProfileInfo("x", "cpu", 10, 0, 0, List.of()));

        List<String> named = new ArrayList<>();
        SampleTimes times = p.times();
        for (int i = 0; i < times.size(); i++) {
            named.add((times.epochNanos(i) - T0) / MS + " " + p.framesOf(p.stacks().get(times.stack(i)))[0].name()
                    + " " + times.count(i));
        }
        assertThat(named).containsExactly("3 a 1", "7 b 2", "9 b 1");
        assertThat(p.totalSamples()).isEqualTo(5);
        assertThat(acc.snapshotAndReset(p.info()).times().size()).isEqualTo(3);
        assertThat(acc.snapshot(p.info()).times().size()).isZero();
    }

    @Test
    void withoutRecordTimesAProfileHasNone() {
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.add(new Frame[] {new Frame("a", FrameType.NATIVE)}, 1, 1, 10, T0);

        assertThat(acc.snapshot(new ProfileInfo("x", "cpu", 10, 0, 0, List.of())).times()).isSameAs(SampleTimes.NONE);
    }
}
