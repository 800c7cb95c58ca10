package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The relay thread moves records from rings laid out as the kernel's (a metadata page, then the data) into its own,
 * whole and in order, across the ends of both rings; a relay ring that is full takes no more, leaving the rest in the
 * kernel's ring, which then frees no space; what the reader consumed makes room again.
 */
class RingRelayTest {
    private static final int PAGE = PerfCaptureSettings.PAGE_BYTES;
    private static final long WAIT_NANOS = 10_000_000_000L;

    @Test
    void recordsMoveWholeAndInOrderAndAFullRelayRingHoldsTheRestBack() throws Exception {
        int sourceBytes = 4 * PAGE;
        long relayBytes = 2L * PAGE;
        Memory[] sources = {source(sourceBytes), source(sourceBytes)};
        String[] why = new String[1];
        RingRelay relay = RingRelay.start(new long[] {Pointer.nativeValue(sources[0]), Pointer.nativeValue(sources[1])},
                new long[] {sourceBytes, sourceBytes}, relayBytes, why);
        assertThat(relay).as("the relay, else why not: %s", why[0]).isNotNull();
        try {
            PerfRingBuffer[] read = {new PerfRingBuffer(relay.ring(0), PAGE, (int) (relayBytes / PAGE)),
                    new PerfRingBuffer(relay.ring(1), PAGE, (int) (relayBytes / PAGE))};
            // 300 records of 40 bytes into ring 0 (12 000 bytes: more than the relay ring's 8 KiB), 5 into ring 1.
            long[] heads = new long[2];
            for (int i = 0; i < 300; i++) {
                write(sources[0], sourceBytes, heads, 0, i, 40);
            }
            for (int i = 0; i < 5; i++) {
                write(sources[1], sourceBytes, heads, 1, 1000 + i, 24);
            }
            List<Integer> seen0 = new ArrayList<>();
            List<Integer> seen1 = new ArrayList<>();
            // Ring 1 arrives whole; ring 0 fills its relay ring (204 records of 40 bytes fit in 8 KiB) and waits.
            awaitFull(relay);
            // Ring 1 is moved after ring 0 at each wake-up: read until its records came, or the deadline.
            long deadline1 = System.nanoTime() + WAIT_NANOS;
            while (seen1.size() < 5 && System.nanoTime() < deadline1) {
                drain(read[1], seen1);
                Thread.sleep(5);
            }
            assertThat(seen1).containsExactly(1000, 1001, 1002, 1003, 1004);
            assertThat(sources[0].getLong(1032)).as("the kernel's ring 0 still holds what did not fit")
                    .isLessThan(heads[0]);
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (seen0.size() < 300 && System.nanoTime() < deadline) {
                drain(read[0], seen0);
                Thread.sleep(5);
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                expected.add(i);
            }
            assertThat(seen0).as("every record, in order, once the reader made room").isEqualTo(expected);
            assertThat(sources[0].getLong(1032)).as("the kernel's ring 0 freed").isEqualTo(heads[0]);
            // More, wrapping around both rings' ends again.
            for (int i = 300; i < 420; i++) {
                write(sources[0], sourceBytes, heads, 0, i, 56);
            }
            deadline = System.nanoTime() + WAIT_NANOS;
            while (seen0.size() < 420 && System.nanoTime() < deadline) {
                drain(read[0], seen0);
                Thread.sleep(5);
            }
            assertThat(seen0.subList(300, seen0.size())).hasSize(120).startsWith(300).endsWith(419);
            deadline = System.nanoTime() + WAIT_NANOS;
            while (relay.moved() < 425 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(relay.moved()).as("records moved").isEqualTo(425);
        } finally {
            relay.stop();
            relay.free();
        }
    }

    /**
     * A relay ring the reader emptied, its writer past half of it (a megabyte, in a ring larger than two), starts
     * again at its beginning: the records keep their order across the skipped rest of the lap.
     */
    @Test
    void anEmptiedRelayRingStartsAgainAtItsBeginning() throws Exception {
        int sourceBytes = 8 * PAGE;
        long relayBytes = 4L * PAGE;
        Memory source = source(sourceBytes);
        RingRelay relay = relayOf(source, sourceBytes, relayBytes);
        try {
            Pointer meta = new Pointer(relay.ring(0));
            PerfRingBuffer read = new PerfRingBuffer(relay.ring(0), PAGE, (int) (relayBytes / PAGE));
            long[] heads = new long[1];
            List<Integer> seen = new ArrayList<>();
            // 20 records of 512 bytes: 10 KiB, past half of the 16 KiB ring.
            for (int i = 0; i < 20; i++) {
                write(source, sourceBytes, heads, 0, i, 512);
            }
            flushed(relay);
            assertThat(meta.getLong(1024) & (relayBytes - 1)).as("the writer's offset").isEqualTo(10_240);
            drain(read, seen);
            write(source, sourceBytes, heads, 0, 20, 512);
            flushed(relay);
            assertThat(meta.getLong(1024) & (relayBytes - 1)).as("the next record at the ring's start")
                    .isEqualTo(512);
            drain(read, seen);
            // Below half of the ring, an emptied ring goes on where it was.
            write(source, sourceBytes, heads, 0, 21, 512);
            flushed(relay);
            drain(read, seen);
            assertThat(meta.getLong(1024) & (relayBytes - 1)).isEqualTo(1024);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 22; i++) {
                expected.add(i);
            }
            assertThat(seen).isEqualTo(expected);
        } finally {
            relay.stop();
            relay.free();
        }
        assertThat(relay.flush(RingRelay.FLUSH_WAIT_NANOS)).as("a stopped relay does not keep its reader waiting").isFalse();
    }

    /**
     * The time before which every record the kernel wrote has been moved (what a reader that counts time from the
     * records may count up to) is when the last pass that moved everything began: it follows the passes, stays while a
     * relay ring is full (records wait in the kernel's ring), and moves on once the reader made room.
     */
    @Test
    void theTimeUpToWhichEverythingWasMovedStaysWhileARelayRingIsFull() throws Exception {
        int sourceBytes = 4 * PAGE;
        long relayBytes = 2L * PAGE;
        Memory source = source(sourceBytes);
        RingRelay relay = relayOf(source, sourceBytes, relayBytes);
        try {
            PerfRingBuffer read = new PerfRingBuffer(relay.ring(0), PAGE, (int) (relayBytes / PAGE));
            long[] heads = new long[1];
            List<Integer> seen = new ArrayList<>();
            write(source, sourceBytes, heads, 0, 0, 40);
            long before = System.nanoTime();
            flushed(relay);
            assertThat(relay.passedAt()).as("a pass asked for after %d", before).isGreaterThanOrEqualTo(before);
            // 300 records of 40 bytes: more than the relay ring's 8 KiB.
            for (int i = 1; i <= 300; i++) {
                write(source, sourceBytes, heads, 0, i, 40);
            }
            awaitFull(relay);
            long stuck = relay.passedAt();
            long later = System.nanoTime();
            relay.flush(RingRelay.FLUSH_WAIT_NANOS);
            Thread.sleep(20);
            assertThat(relay.passedAt()).as("while the relay ring is full").isEqualTo(stuck).isLessThan(later);
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (seen.size() < 301 && System.nanoTime() < deadline) {
                drain(read, seen);
                Thread.sleep(5);
            }
            assertThat(seen).hasSize(301);
            long emptied = System.nanoTime();
            flushed(relay);
            assertThat(relay.passedAt()).as("once everything was moved").isGreaterThanOrEqualTo(emptied);
        } finally {
            relay.stop();
            relay.free();
        }
    }

    @Test
    void aRelayRingHoldsSecondsOfSamplesWithinItsBounds() {
        // 10 ms, 16 KiB records: 8 s is 13 MB, 16 MiB as a power of two.
        assertThat(RingRelay.ringBytes(2, 4L << 20, 10_000_000L, 16_640)).isEqualTo(16L << 20);
        assertThat(RingRelay.ringBytes(2, 4L << 20, 1_000_000L, 16_640)).as("at most 32 MiB a ring").isEqualTo(32L << 20);
        assertThat(RingRelay.ringBytes(64, 512L << 10, 1_000_000L, 16_640)).as("at most 256 MiB in all")
                .isEqualTo(4L << 20);
        assertThat(RingRelay.ringBytes(2, 64L << 20, 1_000_000_000L, 100)).as("never smaller than the kernel's")
                .isEqualTo(64L << 20);
    }

    /** A relay of the one ring {@code source} onto a ring of {@code relayBytes}, started. */
    private static RingRelay relayOf(Memory source, int sourceBytes, long relayBytes) {
        String[] why = new String[1];
        RingRelay relay = RingRelay.start(new long[] {Pointer.nativeValue(source)}, new long[] {sourceBytes},
                relayBytes, why);
        assertThat(relay).as("the relay, else why not: %s", why[0]).isNotNull();
        return relay;
    }

    private static Memory source(int dataBytes) {
        Memory m = new Memory(PAGE + dataBytes);
        m.clear();
        m.setLong(1040, PAGE);
        m.setLong(1048, dataBytes);
        return m;
    }

    /** A record of {@code length} bytes holding {@code value}, at the ring's head, published as the kernel does. */
    private static void write(Memory ring, int size, long[] heads, int which, int value, int length) {
        ByteBuffer r = ByteBuffer.allocate(length).order(java.nio.ByteOrder.nativeOrder());
        r.putInt(0, 99).putShort(6, (short) length).putInt(8, value);
        long head = heads[which];
        // Wait for room, as the kernel would lose the record instead.
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (head + length - ring.getLong(1032) > size && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        for (int i = 0; i < length; i++) {
            ring.setByte(PAGE + ((head + i) & (size - 1)), r.get(i));
        }
        heads[which] = head + length;
        ring.setLong(1024, heads[which]);
    }

    /** Asks for a pass until one comes within the wait (a busy machine may keep the relay thread off a core). */
    private static void flushed(RingRelay relay) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        boolean moved = false;
        while (!moved && System.nanoTime() < deadline) {
            moved = relay.flush(RingRelay.FLUSH_WAIT_NANOS);
        }
        assertThat(moved).as("a pass of the relay's, asked for").isTrue();
    }

    private static void awaitFull(RingRelay relay) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (relay.full() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(relay.full()).as("times the relay ring was found full").isPositive();
    }

    private static void drain(PerfRingBuffer ring, List<Integer> into) {
        ring.drain((type, buffer, offset, length) -> into.add(buffer.getInt(offset + 8)));
    }
}
