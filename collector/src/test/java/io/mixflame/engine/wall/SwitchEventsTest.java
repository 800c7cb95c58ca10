package io.mixflame.engine.wall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.capture.perf.SampleCapture.SwitchListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SwitchEventsTest {

    @Test
    void twoCpusDrainedOneAfterTheOtherComeOutInTimeOrder() {
        SwitchEvents events = new SwitchEvents(16);
        // CPU 0's ring, then CPU 1's: thread 7 went off CPU 0 to wait at 10 and woke on CPU 1 at 30.
        events.add(7, SwitchListener.IN, 5);
        events.add(7, SwitchListener.OUT_BLOCKED, 10);
        events.add(8, SwitchListener.IN, 40);
        events.add(7, SwitchListener.IN, 30);
        events.add(7, SwitchEvents.SAMPLE, 35);
        events.add(9, SwitchListener.OUT_PREEMPTED, 10);
        events.sort();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            order.add(events.tid(i) + ":" + events.kind(i) + "@" + events.time(i));
        }
        assertThat(order).as("in time order, those of one time as they were added")
                .containsExactly("7:0@5", "7:2@10", "9:1@10", "7:0@30", "7:3@35", "8:0@40");
    }

    @Test
    void anyOrderIsSortedStablyAndAFullBufferTakesNoMore() {
        Random random = new Random(42);
        SwitchEvents events = new SwitchEvents(1000);
        long[] times = new long[1000];
        for (int i = 0; i < 1000; i++) {
            times[i] = random.nextInt(100);
            assertThat(events.add(i, SwitchListener.IN, times[i])).isTrue();
        }
        assertThat(events.hasRoom()).isFalse();
        assertThat(events.add(1000, SwitchListener.IN, 1)).as("a full buffer").isFalse();
        events.sort();
        for (int i = 1; i < 1000; i++) {
            assertThat(events.time(i)).isGreaterThanOrEqualTo(events.time(i - 1));
            if (events.time(i) == events.time(i - 1)) {
                assertThat(events.tid(i)).as("stable").isGreaterThan(events.tid(i - 1));
            }
            assertThat(events.time(i)).isEqualTo(times[events.tid(i)]);
        }
        events.clear();
        assertThat(events.size()).isZero();
        assertThat(events.hasRoom()).isTrue();
        assertThatThrownBy(() -> new SwitchEvents(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eventsKeptForTheNextDrainComeFirstAndSortWithTheNewOnes() {
        SwitchEvents events = new SwitchEvents(6);
        events.add(1, SwitchListener.IN, 50);
        events.add(2, SwitchListener.IN, 10);
        events.add(3, SwitchListener.OUT_BLOCKED, 30);
        events.add(4, SwitchListener.IN, 40);
        events.sort();
        // The two before 35 applied: the two after it kept, in order.
        events.keepFrom(2);
        assertThat(events.size()).isEqualTo(2);
        assertThat(events.tid(0)).isEqualTo(4);
        assertThat(events.tid(1)).isEqualTo(1);
        assertThat(events.hasRoom()).isTrue();
        events.add(5, SwitchListener.IN, 45);
        events.add(6, SwitchListener.IN, 35);
        events.sort();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            order.add(events.tid(i) + "@" + events.time(i));
        }
        assertThat(order).containsExactly("6@35", "4@40", "5@45", "1@50");
        events.keepFrom(events.size());
        assertThat(events.size()).isZero();
    }
}
