package io.mixflame.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecentlyUnmappedStacksTest {
    private static final long S = 1_000_000_000L;
    private final RecentlyUnmappedStacks stacks = new RecentlyUnmappedStacks();

    private static MemoryMapping anonymous(long start, long end, boolean writable) {
        return new MemoryMapping(start, end, true, writable, false, 0, 0, "");
    }

    @Test
    void aStackGoneFromTheMapsIsKeptForLateWalksOfItsSamples() {
        MemoryMapping code = new MemoryMapping(0x1000, 0x9000, true, false, true, 0, 77, "/usr/lib/libc.so.6");
        MemoryMapping stackA = anonymous(0x7000_0000L, 0x7010_0000L, true);
        MemoryMapping stackB = anonymous(0x7020_0000L, 0x7030_0000L, true);
        MemoryMapping guard = anonymous(0x7010_0000L, 0x7011_0000L, false);

        stacks.compare(List.of(code, stackA, guard, stackB), List.of(code, stackB), 10 * S);

        assertThat(stacks.containing(0x7000_8000L, 11 * S)).isEqualTo(stackA);
        assertThat(stacks.containing(0x7010_8000L, 11 * S)).as("a guard page is no stack").isNull();
        assertThat(stacks.containing(0x7020_8000L, 11 * S)).as("still mapped: asked of the maps").isNull();
        assertThat(stacks.containing(0x4000, 11 * S)).isNull();
        assertThat(stacks.containing(0x7000_8000L, 10 * S + RecentlyUnmappedStacks.KEEP_NANOS + 1))
                .as("past the time kept").isNull();
    }

    @Test
    void aMappingReplacedByAnotherOfOtherBoundsCountsAsGoneAndTheNewestAnswersFirst() {
        MemoryMapping first = anonymous(0x7000_0000L, 0x7010_0000L, true);
        MemoryMapping second = anonymous(0x7000_0000L, 0x7008_0000L, true);
        stacks.compare(List.of(first), List.of(second), S);
        stacks.compare(List.of(second), List.of(), 2 * S);

        assertThat(stacks.containing(0x7000_1000L, 3 * S)).isEqualTo(second);
        assertThat(stacks.containing(0x7009_0000L, 3 * S)).isEqualTo(first);
    }

    @Test
    void theOldestGoBeyondTheCapacity() {
        for (int i = 0; i <= RecentlyUnmappedStacks.CAPACITY; i++) {
            long start = 0x7000_0000L + 0x10_0000L * i;
            stacks.compare(List.of(anonymous(start, start + 0x10_0000L, true)), List.of(), S + i);
        }
        assertThat(stacks.containing(0x7000_0000L, 2 * S)).as("the first, overwritten").isNull();
        assertThat(stacks.containing(0x7000_0000L + 0x10_0000L, 2 * S)).isNotNull();
    }
}
