package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.process.MemoryReadException;
import io.mixflame.testsupport.FakeProcessMemory;
import org.junit.jupiter.api.Test;

/** The code line cache: one read a line, lines read again after their period, none served across processes. */
class CodeLineCacheTest {
    private static final long REFRESH = 10_000_000_000L;
    private static final int LINES = 512;
    private static final long CODE = 0x7ff8_1234_0000L;

    private long now;
    private final CodeLineCache cache = new CodeLineCache(LINES, REFRESH, () -> now);
    private final FakeProcessMemory memory = new FakeProcessMemory().map(CODE, 4096)
            .writeLong(CODE + 0x10, 0x1122_3344_5566_7788L).writeLong(CODE + 0x3c, 0x0102_0304_0506_0708L);

    @Test
    void readsALineOnceForEveryWordInIt() throws Exception {
        assertThat(cache.readLong(memory, CODE + 0x10)).isEqualTo(0x1122_3344_5566_7788L);
        assertThat(cache.readLong(memory, CODE + 0x11)).isEqualTo(0x0011_2233_4455_6677L);
        assertThat(cache.readLong(memory, CODE + 0x18)).isZero();
        assertThat(memory.systemReads()).isEqualTo(1);
    }

    @Test
    void aWordAcrossTwoLinesReadsBothOnce() throws Exception {
        assertThat(cache.readLong(memory, CODE + 0x3c)).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(cache.readLong(memory, CODE + 0x3c)).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(memory.systemReads()).isEqualTo(2);
    }

    @Test
    void readsALineAgainOnceItsPeriodHasPassed() throws Exception {
        cache.readLong(memory, CODE + 0x10);
        memory.writeLong(CODE + 0x10, 42);
        now += REFRESH - 1;
        assertThat(cache.readLong(memory, CODE + 0x10)).isEqualTo(0x1122_3344_5566_7788L);
        now += 1;
        assertThat(cache.readLong(memory, CODE + 0x10)).isEqualTo(42);
        assertThat(memory.systemReads()).isEqualTo(2);
    }

    @Test
    void aLineFilledForAnOwnerIsServedToItForLongerAndReadAgainForAnother() {
        Object blob = new Object();
        byte[] out = new byte[8];
        cache.copy(memory, CODE + 0x10, out, 8, blob);
        memory.writeLong(CODE + 0x10, 42);
        now += REFRESH * (CodeLineCache.OWNED_PERIODS - 1);
        cache.copy(memory, CODE + 0x10, out, 8, blob);
        assertThat(out[0]).as("still the bytes read for this owner").isEqualTo((byte) 0x88);
        assertThat(memory.systemReads()).isEqualTo(1);

        Object replaced = new Object();
        cache.copy(memory, CODE + 0x10, out, 8, replaced);
        assertThat(out[0]).as("another blob at the same address: read again").isEqualTo((byte) 42);
        assertThat(memory.systemReads()).isEqualTo(2);

        cache.copy(memory, CODE + 0x10, out, 8, null);
        assertThat(memory.systemReads()).as("code of no owner is not served from an owner's line").isEqualTo(3);
    }

    @Test
    void anOwnersLineIsReadAgainAfterItsLongerPeriodAllTheSame() {
        Object blob = new Object();
        byte[] out = new byte[8];
        cache.copy(memory, CODE + 0x10, out, 8, blob);
        memory.writeLong(CODE + 0x10, 42);
        now += REFRESH * CodeLineCache.OWNED_PERIODS;
        cache.copy(memory, CODE + 0x10, out, 8, blob);
        assertThat(out[0]).isEqualTo((byte) 42);
        assertThat(memory.systemReads()).isEqualTo(2);
    }

    @Test
    void anotherProcessesCodeAtTheSameAddressIsReadFromIt() throws Exception {
        cache.readLong(memory, CODE + 0x10);
        FakeProcessMemory other = new FakeProcessMemory().map(CODE, 4096).writeLong(CODE + 0x10, 7);
        assertThat(cache.readLong(other, CODE + 0x10)).isEqualTo(7);
    }

    @Test
    void aLineThatCannotBeReadFailsEveryWordInItAndIsNotAskedForAgainAtOnce() {
        long unmapped = CODE + 8192;
        assertThatThrownBy(() -> cache.readLong(memory, unmapped)).isInstanceOf(MemoryReadException.class);
        assertThatThrownBy(() -> cache.readLong(memory, unmapped + 8)).isInstanceOf(MemoryReadException.class);
        assertThat(memory.systemReads()).isEqualTo(1);
    }

    @Test
    void aCopyRunningIntoUnreadableMemoryStopsWhereItEnds() {
        byte[] out = new byte[16];
        assertThat(cache.copy(memory, CODE + 4096 - 4, out, 16)).isEqualTo(4);
        assertThat(cache.copy(memory, CODE + 0x10, out, 16)).isEqualTo(16);
        assertThat(out[0]).isEqualTo((byte) 0x88);
    }

    @Test
    void aWordRunningIntoUnreadableMemoryFails() {
        assertThatThrownBy(() -> cache.readLong(memory, CODE + 4096 - 4)).isInstanceOf(MemoryReadException.class);
    }

    @Test
    void linesThatShareASlotEvictEachOther() throws Exception {
        long sameSlot = CODE + (long) CodeLineCache.LINE * LINES;
        memory.map(sameSlot, 4096).writeLong(sameSlot + 0x10, 9);
        assertThat(cache.readLong(memory, CODE + 0x10)).isEqualTo(0x1122_3344_5566_7788L);
        assertThat(cache.readLong(memory, sameSlot + 0x10)).isEqualTo(9);
        assertThat(cache.readLong(memory, CODE + 0x10)).isEqualTo(0x1122_3344_5566_7788L);
        assertThat(memory.systemReads()).isEqualTo(3);
    }
}
