package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryReadException;
import org.junit.jupiter.api.Test;

/**
 * The PcDesc a sampled pc is credited to. The C2 table is that of the {@code cpu} example's {@code round} as JDK 25
 * compiled it (offsets read from the running JVM): each inlined copy of {@code work} is a loop followed by its
 * safepoint poll, whose PcDesc names {@code work} in beta, gamma or alpha. The C1 table is made up in its image.
 */
class PcDescSearchTest {
    /** C2 {@code round}: the sentinel, the polls of work in beta, gamma and alpha, round's own poll, the end. */
    private static final int[] C2_ROUND = {-1, 564, 1172, 1732, 1879, 2049};
    private static final int BETA_POLL = 1;
    private static final int GAMMA_POLL = 2;
    private static final int ALPHA_POLL = 3;

    /** A C1 {@code round} calling a separately compiled work: PcDescs at the return addresses of three calls. */
    private static final int[] C1_ROUND = {-1, 120, 168, 216, 302};

    private static PcDescSearch.Offsets table(int... offsets) {
        return new PcDescSearch.Offsets() {
            @Override
            public long count() {
                return offsets.length;
            }

            @Override
            public int offsetAt(long index) {
                return offsets[(int) index];
            }
        };
    }

    private static long indexFor(int[] offsets, int pcOffset) throws MemoryReadException {
        return PcDescSearch.indexFor(table(offsets), pcOffset);
    }

    @Test
    void aLeafPcInALoopIsCreditedToThePollAfterIt() throws MemoryReadException {
        // Pcs taken from the unrolled loop bodies of each copy (the bodies span 74–547, 682–1155, 1242–1715).
        assertThat(indexFor(C2_ROUND, 74)).isEqualTo(BETA_POLL);
        assertThat(indexFor(C2_ROUND, 547)).isEqualTo(BETA_POLL);
        assertThat(indexFor(C2_ROUND, 682)).isEqualTo(GAMMA_POLL);
        assertThat(indexFor(C2_ROUND, 1155)).isEqualTo(GAMMA_POLL);
        assertThat(indexFor(C2_ROUND, 1242)).isEqualTo(ALPHA_POLL);
        assertThat(indexFor(C2_ROUND, 1715)).isEqualTo(ALPHA_POLL);
    }

    @Test
    void aLeafPcOnAPollIsCreditedToThatPollNotTheNextMethod() throws MemoryReadException {
        // Searching strictly after the pc would move these samples to the next inlined copy.
        assertThat(indexFor(C2_ROUND, 564)).isEqualTo(BETA_POLL);
        assertThat(indexFor(C2_ROUND, 1172)).isEqualTo(GAMMA_POLL);
        assertThat(indexFor(C2_ROUND, 1732)).isEqualTo(ALPHA_POLL);
    }

    @Test
    void aReturnAddressIsCreditedToItsOwnCallSite() throws MemoryReadException {
        assertThat(indexFor(C1_ROUND, 120)).isEqualTo(1);
        assertThat(indexFor(C1_ROUND, 168)).isEqualTo(2);
        assertThat(indexFor(C1_ROUND, 216)).isEqualTo(3);
    }

    @Test
    void aPcJustAfterACallOrPollIsCreditedToTheNextPcDesc() throws MemoryReadException {
        // Not the one before: what follows a call belongs to the code leading up to the next PcDesc.
        assertThat(indexFor(C1_ROUND, 121)).isEqualTo(2);
        assertThat(indexFor(C2_ROUND, 565)).isEqualTo(GAMMA_POLL);
    }

    @Test
    void aPcAfterTheLastPcDescHasNone() throws MemoryReadException {
        assertThat(indexFor(C2_ROUND, 2050)).isEqualTo(-1);
        assertThat(indexFor(new int[0], 10)).isEqualTo(-1);
    }

    @Test
    void everyPcFindsTheFirstPcDescAtOrAfterIt() throws MemoryReadException {
        // The binary search against a linear scan, over every pc of the table and past both ends.
        for (int pc = -2; pc <= 2051; pc++) {
            long expected = -1;
            for (int i = 0; i < C2_ROUND.length; i++) {
                if (C2_ROUND[i] >= pc) {
                    expected = i;
                    break;
                }
            }
            assertThat(indexFor(C2_ROUND, pc)).as("pc offset %d", pc).isEqualTo(expected);
        }
    }
}
