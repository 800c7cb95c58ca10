package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.process.ThreadSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A thread's event reopened with a larger stack copy, through system calls faked in memory. */
class PerfCaptureGrowthTest {
    private static final int PAGE = PerfCaptureSettings.PAGE_BYTES;
    private static final int KIB = 1024;

    /** Opens every event, maps each ring buffer onto native memory of its own, and records every call. */
    static final class FakeKernel implements PerfSyscalls {
        final List<String> calls = new ArrayList<>();
        final Map<Integer, byte[]> attrs = new HashMap<>();
        final Map<Integer, Integer> tids = new HashMap<>();
        final Map<Integer, Memory> rings = new HashMap<>();
        final Map<Long, Integer> fdAt = new HashMap<>();
        long mapLimit = Long.MAX_VALUE;
        int nextFd = 10;

        @Override
        public int perfEventOpen(byte[] attr, int tid, long flags) {
            int fd = nextFd++;
            attrs.put(fd, attr.clone());
            tids.put(fd, tid);
            calls.add("open " + tid + " stack=" + stackBytes(attr) + " -> " + fd);
            return fd;
        }

        @Override
        public long mmap(int fd, long length) {
            if (length > mapLimit) {
                calls.add("mmap " + fd + " refused");
                return -12;
            }
            Memory ring = new Memory(length);
            ring.clear();
            rings.put(fd, ring);
            fdAt.put(Pointer.nativeValue(ring), fd);
            calls.add("mmap " + fd + " pages=" + (length / PAGE - 1));
            return Pointer.nativeValue(ring);
        }

        @Override
        public void munmap(long address, long length) {
            calls.add("munmap " + fdAt.get(address));
        }

        @Override
        public int ioctl(int fd, long request) {
            calls.add("enable " + fd);
            return 0;
        }

        @Override
        public void close(int fd) {
            calls.add("close " + fd);
        }

        /** The descriptor of thread {@code tid}'s latest event. */
        int fdOf(int tid) {
            int fd = -1;
            for (Map.Entry<Integer, Integer> e : tids.entrySet()) {
                if (e.getValue() == tid && e.getKey() > fd) {
                    fd = e.getKey();
                }
            }
            return fd;
        }

        /** Writes a sample record of thread {@code tid} with {@code stack} bytes of stack into its ring buffer. */
        void sample(int tid, int stack) {
            sample(fdOf(tid), tid, stack);
        }

        /** The same, into the ring buffer of event {@code fd}. */
        void sample(int fd, int tid, int stack) {
            Memory ring = rings.get(fd);
            byte[] record = record(tid, stack);
            long head = ring.getLong(1024);
            ring.write(PAGE + head, record, 0, record.length);
            ring.setLong(1024, head + record.length);
        }
    }

    static int stackBytes(byte[] attr) {
        return ByteBuffer.wrap(attr).order(ByteOrder.nativeOrder()).getInt(88);
    }

    /** A sample record as a user-space-only event lays it out: ip, pid/tid, time, registers, stack. */
    static byte[] record(int tid, int stack) {
        int regs = UserRegisters.count();
        int size = 8 + 24 + 8 + 8 * regs + 8 + stack + 8;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        b.putInt(9).putShort((short) 0).putShort((short) size);
        b.putLong(0x400000).putInt(1).putInt(tid).putLong(1L);
        b.putLong(2);
        for (int i = 0; i < regs; i++) {
            b.putLong(0x1000 + i);
        }
        b.putLong(stack);
        b.position(b.position() + stack);
        b.putLong(stack);
        return b.array();
    }

    /** A process's threads, which a test may change. */
    static final class Threads implements ThreadSource {
        int[] now;

        Threads(int... tids) {
            now = tids;
        }

        @Override
        public int count() {
            return now.length;
        }

        @Override
        public int[] list() {
            return now.clone();
        }

        @Override
        public String name(int tid) {
            return null;
        }

        @Override
        public long cpuTimeNanos(int tid) {
            return -1;
        }
    }

    private final FakeKernel kernel = new FakeKernel();
    private final PerfCapture capture = new PerfCapture(new PerfCaptureSettings(1, 1_000_000L, 16 * KIB,
            PerfCaptureSettings.DEFAULT_DATA_PAGES, 16, false), kernel, new Threads(100, 101));
    private final List<String> delivered = new ArrayList<>();

    private void deliver(RawSample s) {
        delivered.add(s.tid + ":" + s.stackLength);
    }

    @Test
    void aThreadsEventIsReopenedWithTheLargerCopyAndARingSizedForIt() throws Exception {
        capture.start();
        assertThat(capture.stackBytes(101)).isEqualTo(16 * KIB);
        int oldFd = kernel.fdOf(101);
        byte[] oldAttr = kernel.attrs.get(oldFd);
        kernel.sample(101, 16 * KIB);
        kernel.calls.clear();

        assertThat(capture.growStack(101, 32 * KIB, this::deliver)).isTrue();

        int newFd = kernel.fdOf(101);
        assertThat(kernel.calls).containsExactly("open 101 stack=32768 -> " + newFd, "mmap " + newFd + " pages=64",
                "munmap " + oldFd, "close " + oldFd, "enable " + newFd);
        assertThat(delivered).as("the old ring drained before it was closed").containsExactly("101:16384");
        byte[] newAttr = kernel.attrs.get(newFd);
        assertThat(stackBytes(newAttr)).isEqualTo(32 * KIB);
        ByteBuffer.wrap(newAttr).order(ByteOrder.nativeOrder()).putInt(88, 16 * KIB);
        assertThat(newAttr).as("every other setting as it was").isEqualTo(oldAttr);
        assertThat(capture.stackBytes(101)).isEqualTo(32 * KIB);
        assertThat(capture.stackBytes(100)).as("other threads keep theirs").isEqualTo(16 * KIB);
        assertThat(capture.threads()).isEqualTo(2);

        delivered.clear();
        kernel.sample(101, 32 * KIB);
        capture.drain(this::deliver);
        assertThat(delivered).as("the reused sample holds the whole larger copy").containsExactly("101:32768");
    }

    @Test
    void aThreadWhoseSamplesAreNotWalkedIsReopenedWithoutAStackCopy() throws Exception {
        capture.start();
        int oldFd = kernel.fdOf(100);
        kernel.sample(100, 16 * KIB);
        kernel.calls.clear();

        assertThat(capture.copyNoStack(100, this::deliver)).isTrue();

        int newFd = kernel.fdOf(100);
        assertThat(kernel.calls).containsExactly("open 100 stack=0 -> " + newFd,
                "mmap " + newFd + " pages=" + PerfCaptureSettings.DEFAULT_DATA_PAGES,
                "munmap " + oldFd, "close " + oldFd, "enable " + newFd);
        assertThat(delivered).as("the old ring drained before it was closed").containsExactly("100:16384");
        assertThat(capture.stackBytes(100)).isZero();
        assertThat(capture.stackBytes(101)).as("other threads keep theirs").isEqualTo(16 * KIB);

        delivered.clear();
        kernel.sample(100, 0);
        capture.drain(this::deliver);
        assertThat(delivered).as("its samples still arrive, to be counted").containsExactly("100:0");
        kernel.calls.clear();
        assertThat(capture.copyNoStack(100, this::deliver)).as("already without").isTrue();
        assertThat(capture.copyNoStack(999, this::deliver)).as("no event yet").isFalse();
        assertThat(kernel.calls).isEmpty();
    }

    @Test
    void theLargestCopyIsCappedAndItsRingHoldsAsManyRecordsAsTheDefault() throws Exception {
        capture.start();
        kernel.calls.clear();
        assertThat(capture.growStack(100, 1 << 20, this::deliver)).isTrue();
        int fd = kernel.fdOf(100);
        assertThat(kernel.calls).startsWith("open 100 stack=65528 -> " + fd, "mmap " + fd + " pages=128");
        kernel.calls.clear();
        assertThat(capture.growStack(100, 65528, this::deliver)).as("already that large").isFalse();
        assertThat(capture.growStack(999, 32 * KIB, this::deliver)).as("not sampled").isFalse();
        assertThat(kernel.calls).isEmpty();
    }

    @Test
    void aRefusedRingLeavesTheThreadWithItsOldEvent() throws Exception {
        capture.start();
        int oldFd = kernel.fdOf(101);
        kernel.mapLimit = 40L * PAGE;
        kernel.calls.clear();
        assertThat(capture.growStack(101, 32 * KIB, this::deliver)).isFalse();
        int newFd = kernel.fdOf(101);
        assertThat(kernel.calls).containsExactly("open 101 stack=32768 -> " + newFd, "mmap " + newFd + " refused",
                "close " + newFd);
        assertThat(capture.stackBytes(101)).isEqualTo(16 * KIB);
        kernel.sample(oldFd, 101, 64);
        capture.drain(this::deliver);
        assertThat(delivered).as("still sampled through the old event").containsExactly("101:64");
    }
}
