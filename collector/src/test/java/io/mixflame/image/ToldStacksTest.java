package io.mixflame.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import org.junit.jupiter.api.Test;

/** The stacks threads told as they started: the newest holding an sp answers, and only the last few thousand. */
class ToldStacksTest {
    @Test
    void theNewestToldStackHoldingAnSpAnswersWithinTheCapacity() {
        ToldStacks stacks = new ToldStacks();
        stacks.told(0x7000_0000L, 0x7010_0000L);
        stacks.told(0x7020_0000L, 0x7030_0000L);
        MemoryMapping m = stacks.containing(0x7028_0000L);
        assertThat(m).isNotNull();
        assertThat(m.start()).isEqualTo(0x7020_0000L);
        assertThat(m.end()).isEqualTo(0x7030_0000L);
        assertThat(m.readable() && m.writable()).isTrue();
        assertThat(stacks.containing(0x7030_0000L)).as("the high end is outside").isNull();
        assertThat(stacks.containing(0x7018_0000L)).as("between two stacks").isNull();

        // A stack reused by a later thread with other bounds: the newest telling answers.
        stacks.told(0x7000_0000L, 0x7008_0000L);
        assertThat(stacks.containing(0x7004_0000L).end()).isEqualTo(0x7008_0000L);

        for (int i = 0; i < ToldStacks.CAPACITY; i++) {
            stacks.told(0x1_0000_0000L + i * 0x10_0000L, 0x1_0000_0000L + i * 0x10_0000L + 0x8_0000L);
        }
        assertThat(stacks.containing(0x7028_0000L)).as("forgotten past the capacity").isNull();
        assertThat(stacks.containing(0x1_0000_0000L + 5 * 0x10_0000L + 0x100)).isNotNull();
    }
}
