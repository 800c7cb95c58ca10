package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The attribute layout, the sample record layout, and ring-buffer records that wrap around the end. */
class PerfRecordsTest {

    @Test
    void attributeLayout() {
        ByteBuffer b = ByteBuffer.wrap(PerfEventAttr.cpuClock(10_000_000L, UserRegisters.MASK, 16384, false, 1))
                .order(ByteOrder.nativeOrder());
        assertThat(b.capacity()).isEqualTo(128);
        assertThat(b.getInt(0)).isEqualTo(1);
        assertThat(b.getInt(4)).isEqualTo(128);
        assertThat(b.getLong(8)).isZero();
        assertThat(b.getLong(16)).isEqualTo(10_000_000L);
        assertThat(b.getLong(24)).isEqualTo(1 | 2 | 4 | (1 << 12) | (1 << 13));
        assertThat(b.getLong(40)).as("disabled, no kernel, no hypervisor, use_clockid")
                .isEqualTo(1 | (1 << 5) | (1 << 6) | (1L << 25));
        assertThat(b.getLong(80)).isEqualTo(UserRegisters.MASK);
        assertThat(b.getInt(88)).isEqualTo(16384);
        assertThat(b.getInt(92)).as("clockid CLOCK_MONOTONIC").isEqualTo(1);
        ByteBuffer k = ByteBuffer.wrap(PerfEventAttr.cpuClock(1_000_000L, UserRegisters.MASK, 8192, true, 1))
                .order(ByteOrder.nativeOrder());
        assertThat(k.getLong(24) & (1 << 5)).as("callchain").isNotZero();
        assertThat(k.getLong(40)).as("kernel included, user callchain excluded").isEqualTo(1 | (1 << 6) | (1L << 22) | (1L << 25));
    }

    /** A sample record: ip, pid/tid, time, [callchain], regs, stack. */
    private static byte[] sample(int tid, long ip, long[] kernel, int stackBytes) {
        int regs = UserRegisters.count();
        int size = 8 + 24 + (kernel == null ? 0 : 8 + 8 * (kernel.length + 1)) + 8 + 8 * regs + 8 + stackBytes + 8;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        b.putInt(9).putShort((short) 0).putShort((short) size);
        b.putLong(ip).putInt(1).putInt(tid).putLong(123456789L);
        if (kernel != null) {
            b.putLong(kernel.length + 1).putLong(-128L);
            for (long k : kernel) {
                b.putLong(k);
            }
        }
        b.putLong(2);
        for (int i = 0; i < regs; i++) {
            b.putLong(ip + i);
        }
        b.putLong(stackBytes);
        for (int i = 0; i < stackBytes; i++) {
            b.put((byte) i);
        }
        b.putLong(stackBytes - 8);
        return b.array();
    }

    @Test
    void sampleRecordIsParsed() {
        byte[] record = sample(42, 0x400000, new long[] {0xffffffff81000010L, 0xffffffff81000020L}, 64);
        RawSample s = new RawSample(16384);
        assertThat(new SampleRecordParser(true).parse(ByteBuffer.wrap(record).order(ByteOrder.nativeOrder()), 0,
                record.length, s)).isTrue();
        assertThat(s.tid).isEqualTo(42);
        assertThat(s.time).isEqualTo(123456789L);
        assertThat(s.kernelDepth).isEqualTo(2);
        assertThat(s.kernelChain[1]).isEqualTo(0xffffffff81000020L);
        assertThat(s.pc()).isEqualTo(0x400000 + 3);
        assertThat(s.stackLength).as("the dynamic size").isEqualTo(56);
        assertThat(s.stack[55]).isEqualTo((byte) 55);
        assertThat(new SampleRecordParser(true).parse(ByteBuffer.wrap(record).order(ByteOrder.nativeOrder()), 0, 40, s))
                .as("a truncated record is rejected").isFalse();
    }

    @Test
    void recordsWrappingAroundTheEndOfTheBufferArriveWhole() {
        ByteBuffer meta = ByteBuffer.allocate(4096).order(ByteOrder.nativeOrder());
        ByteBuffer data = ByteBuffer.allocate(1024).order(ByteOrder.nativeOrder());
        byte[] first = sample(7, 0x1000, null, 600);
        byte[] second = sample(8, 0x2000, null, 100);
        long tail = 600;
        long head = tail;
        for (byte[] r : List.of(first, second)) {
            for (byte x : r) {
                data.put((int) (head++ & 1023), x);
            }
        }
        meta.putLong(1024, head);
        meta.putLong(1032, tail);
        PerfRingBuffer ring = new PerfRingBuffer(meta, data);
        List<Integer> tids = new ArrayList<>();
        RawSample s = new RawSample(16384);
        SampleRecordParser parser = new SampleRecordParser(false);
        assertThat(ring.drain((type, buffer, offset, length) -> {
            assertThat(parser.parse(buffer, offset, length, s)).isTrue();
            tids.add(s.tid);
            assertThat(s.stack[s.stackLength - 1]).isEqualTo((byte) (s.stackLength - 1));
        })).isEqualTo(2);
        assertThat(tids).containsExactly(7, 8);
        assertThat(meta.getLong(1032)).as("tail published").isEqualTo(head);
        assertThat(ring.drain((type, buffer, offset, length) -> tids.add(-1))).isZero();
    }
}
