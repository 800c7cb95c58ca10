package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table of grown stack copies: its steps, its cap, its bound, and the requests the sampler takes. */
class StackCopyGrowthTest {
    private static final int KIB = 1024;

    /** Takes the waiting requests as "tid:bytes". */
    private static List<String> take(StackCopyGrowth growth) {
        List<String> taken = new ArrayList<>();
        growth.takePending((tid, bytes) -> taken.add(tid + ":" + bytes));
        return taken;
    }

    @Test
    void aThreadGrowsFromSixteenToThirtyTwoToTheCap() {
        StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES, 8);
        assertThat(growth.hasPending()).isFalse();
        assertThat(growth.request(7, 16 * KIB)).isTrue();
        assertThat(growth.hasPending()).isTrue();
        assertThat(take(growth)).containsExactly("7:" + 32 * KIB);
        assertThat(growth.hasPending()).isFalse();
        assertThat(growth.request(7, 32 * KIB)).isTrue();
        assertThat(take(growth)).containsExactly("7:65528");
        assertThat(growth.requested(7)).isEqualTo(65528);
        // A 64 KiB copy comes back a little shorter (the record's 16-bit size): still no further step.
        assertThat(growth.request(7, 65200)).as("at the cap").isFalse();
        assertThat(growth.request(7, 65528)).isFalse();
        assertThat(growth.hasPending()).isFalse();
    }

    @Test
    void samplesTakenBeforeTheNewSizeAskNothingMore() {
        StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES, 8);
        assertThat(growth.request(7, 16 * KIB)).isTrue();
        assertThat(growth.request(7, 16 * KIB)).as("a second broken walk of an old 16 KiB sample").isFalse();
        assertThat(take(growth)).containsExactly("7:" + 32 * KIB);
        assertThat(growth.request(7, 16 * KIB)).as("after the request was applied").isFalse();
        assertThat(take(growth)).isEmpty();
    }

    @Test
    void aLowerCapStopsEarlier() {
        StackCopyGrowth growth = new StackCopyGrowth(32 * KIB, 8);
        assertThat(growth.nextSize(16 * KIB)).isEqualTo(32 * KIB);
        assertThat(growth.nextSize(32 * KIB)).isEqualTo(32 * KIB);
        assertThat(growth.request(3, 32 * KIB)).isFalse();
        assertThat(growth.nextSize(20_000)).as("an odd copy goes to the next power of two").isEqualTo(32 * KIB);
        assertThatThrownBy(() -> new StackCopyGrowth(70_000, 8)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTableHoldsAtMostItsCapacityAndForgetsEndedThreads() {
        StackCopyGrowth growth = new StackCopyGrowth(PerfCaptureSettings.MAX_STACK_BYTES, 2);
        assertThat(growth.request(1, 16 * KIB)).isTrue();
        assertThat(growth.request(2, 16 * KIB)).isTrue();
        assertThat(growth.request(3, 16 * KIB)).as("a third thread, past the bound").isFalse();
        assertThat(growth.requested(3)).isZero();
        assertThat(growth.request(1, 32 * KIB)).as("threads already in the table still grow").isTrue();
        growth.retain(tid -> tid != 1);
        assertThat(growth.requested(1)).isZero();
        assertThat(take(growth)).as("the ended thread's request is dropped with it").containsExactly("2:" + 32 * KIB);
        assertThat(growth.request(3, 16 * KIB)).as("room again").isTrue();
        assertThat(growth.request(1, 16 * KIB)).as("a new thread with an ended one's id starts over").isFalse();
        assertThat(growth.requested(2)).isEqualTo(32 * KIB);
    }
}
