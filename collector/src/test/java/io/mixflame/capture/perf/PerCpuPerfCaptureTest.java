package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One ring buffer per CPU shared by every thread, through system calls faked in memory. */
class PerCpuPerfCaptureTest {
    private static final int PAGE = PerfCaptureSettings.PAGE_BYTES;
    private static final int KIB = 1024;
    private static final long SET_OUTPUT = 0x2405;
    private static final long ENABLE = 0x2400;

    /** Opens per-CPU events, maps each ring onto native memory of its own, and records every call. */
    static final class FakeKernel implements PerfSyscalls {
        final List<String> calls = new ArrayList<>();
        final Map<Integer, byte[]> attrs = new HashMap<>();
        final Map<Integer, Integer> cpuOf = new HashMap<>();
        final Map<Integer, Integer> tidOf = new HashMap<>();
        final Map<Integer, Memory> rings = new HashMap<>();
        final Map<Integer, Integer> outputOf = new HashMap<>();
        final List<Integer> closed = new ArrayList<>();
        long mapLimit = Long.MAX_VALUE;
        /** Refuses {@code inherit_thread} as a kernel before 5.13 does. */
        boolean oldKernel;
        /** Pages all mappings together may hold, as the user's locked memory bounds them. */
        long pagesLeft = Long.MAX_VALUE;
        int refuseKernelWith;
        int nextFd = 10;

        @Override
        public int perfEventOpen(byte[] attr, int tid, long flags) {
            throw new AssertionError("a per-thread event was opened");
        }

        @Override
        public int perfEventOpen(byte[] attr, int tid, int cpu, long flags) {
            if (oldKernel && (flags(attr) & (1L << 35)) != 0) {
                calls.add("open " + tid + "@" + cpu + " EINVAL");
                return -22;
            }
            if (refuseKernelWith != 0 && !excludesKernel(attr)) {
                calls.add("open " + tid + "@" + cpu + " refused");
                return -refuseKernelWith;
            }
            int fd = nextFd++;
            attrs.put(fd, attr.clone());
            cpuOf.put(fd, cpu);
            tidOf.put(fd, tid);
            calls.add("open " + tid + "@" + cpu + (inherits(attr) ? " inherit" : "") + " stack="
                    + PerfCaptureGrowthTest.stackBytes(attr) + " -> " + fd);
            return fd;
        }

        @Override
        public long mmap(int fd, long length) {
            if (length > mapLimit || length / PAGE > pagesLeft) {
                calls.add("mmap " + fd + " refused");
                return -1;
            }
            pagesLeft -= length / PAGE;
            Memory ring = new Memory(length);
            ring.clear();
            rings.put(fd, ring);
            calls.add("mmap " + fd + " pages=" + (length / PAGE - 1));
            return Pointer.nativeValue(ring);
        }

        @Override
        public void munmap(long address, long length) {
            pagesLeft += length / PAGE;
            calls.add("munmap");
        }

        @Override
        public int ioctl(int fd, long request) {
            return ioctl(fd, request, 0);
        }

        @Override
        public int ioctl(int fd, long request, long argument) {
            if (request == SET_OUTPUT) {
                if (!cpuOf.get(fd).equals(cpuOf.get((int) argument))) {
                    return -22; // the kernel refuses a buffer of another CPU
                }
                outputOf.put(fd, (int) argument);
                calls.add("output " + fd + " -> " + argument);
            } else if (request == ENABLE) {
                calls.add("enable " + fd);
            }
            return 0;
        }

        @Override
        public void close(int fd) {
            closed.add(fd);
        }

        /** Writes a sample of thread {@code tid}, asked with a copy of {@code requested}, into CPU {@code cpu}'s ring. */
        void sample(int cpu, int tid, int requested) {
            write(ringOfCpu(cpu), PerfCaptureGrowthTest.record(tid, requested));
        }

        /** The same, of process {@code pid}. */
        void sampleOf(int pid, int cpu, int tid, int requested) {
            byte[] record = PerfCaptureGrowthTest.record(tid, requested);
            ByteBuffer.wrap(record).order(ByteOrder.nativeOrder()).putInt(16, pid);
            write(ringOfCpu(cpu), record);
        }

        void lostRecord(int cpu, long count) {
            ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.nativeOrder());
            b.putInt(2).putShort((short) 0).putShort((short) 24).putLong(1).putLong(count);
            write(ringOfCpu(cpu), b.array());
        }

        /** A switch record of thread {@code tid} of process {@code pid}, with the sample_id that carries them. */
        void switchRecord(int cpu, int pid, int tid) {
            switchRecord(cpu, pid, tid, 1 << 13, 123);
        }

        /** A switch record with the kernel's misc bits ({@code 1 << 13} out, {@code 1 << 14} preempted) at {@code time}. */
        void switchRecord(int cpu, int pid, int tid, int misc, long time) {
            ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.nativeOrder());
            b.putInt(14).putShort((short) misc).putShort((short) 24).putInt(pid).putInt(tid).putLong(time);
            write(ringOfCpu(cpu), b.array());
        }

        private static void write(Memory ring, byte[] record) {
            long head = ring.getLong(1024);
            ring.write(PAGE + head, record, 0, record.length);
            ring.setLong(1024, head + record.length);
        }

        /** The latest ring mapped on {@code cpu}. */
        Memory ringOfCpu(int cpu) {
            int fd = -1;
            for (int mapped : rings.keySet()) {
                if (cpuOf.get(mapped) == cpu && mapped > fd) {
                    fd = mapped;
                }
            }
            if (fd < 0) {
                throw new AssertionError("no ring on cpu " + cpu);
            }
            return rings.get(fd);
        }

        static long flags(byte[] attr) {
            return ByteBuffer.wrap(attr).order(ByteOrder.nativeOrder()).getLong(40);
        }

        static boolean inherits(byte[] attr) {
            return (ByteBuffer.wrap(attr).order(ByteOrder.nativeOrder()).getLong(40) & 2) != 0;
        }

        static boolean excludesKernel(byte[] attr) {
            return (ByteBuffer.wrap(attr).order(ByteOrder.nativeOrder()).getLong(40) & (1 << 5)) != 0;
        }
    }

    private final FakeKernel kernel = new FakeKernel();
    private final List<String> delivered = new ArrayList<>();

    private PerCpuPerfCapture capture(long fileLimit, int pages, int... tids) {
        return new PerCpuPerfCapture(new PerfCaptureSettings(1, 1_000_000L, 16 * KIB, 32, 1024, false), kernel,
                new PerfCaptureGrowthTest.Threads(tids), new int[] {0, 1}, fileLimit, pages);
    }

    private void deliver(RawSample s) {
        delivered.add(s.tid + ":" + s.stackLength);
    }

    @Test
    void everyThreadAliveAtStartGetsAnInheritedEventPerCpuIntoThatCpusOneRing() throws Exception {
        PerCpuPerfCapture capture = capture(4096, 64, 100, 101, 102);
        capture.start(new int[] {102});

        assertThat(kernel.calls).containsExactly(
                "open 100@0 inherit stack=16384 -> 10", "mmap 10 pages=64",
                "open 100@1 inherit stack=16384 -> 11", "mmap 11 pages=64", "enable 10", "enable 11",
                "open 101@0 inherit stack=16384 -> 12", "output 12 -> 10", "enable 12",
                "open 101@1 inherit stack=16384 -> 13", "output 13 -> 11", "enable 13",
                "open 102@0 stack=0 -> 14", "output 14 -> 10", "enable 14",
                "open 102@1 stack=0 -> 15", "output 15 -> 11", "enable 15");
        assertThat(kernel.rings).as("one ring per CPU, whatever the number of threads").hasSize(2);

        kernel.sample(0, 100, 16 * KIB);
        kernel.sample(1, 5000, 16 * KIB); // a thread started later: its inherited event writes into the CPU's ring
        kernel.sample(1, 102, 0);
        kernel.lostRecord(0, 3);
        assertThat(capture.drain(this::deliver)).isEqualTo(3);
        assertThat(delivered).containsExactly("100:16384", "5000:16384", "102:0");
        assertThat(capture.lost()).isEqualTo(3);
        assertThat(capture.stackBytes(102)).as("the profiler's own thread copies no stack").isZero();

        capture.close();
        assertThat(kernel.closed).as("every descriptor closed").containsExactlyInAnyOrder(10, 11, 12, 13, 14, 15);
    }

    @Test
    void aRingRefusedForLockedMemoryIsMappedSmallerAndTooSmallARingIsRefusedWithTheReason() throws Exception {
        kernel.mapLimit = 17L * PAGE;
        PerCpuPerfCapture capture = capture(4096, 64, 100);
        capture.start(new int[0]);
        assertThat(capture.dataPages()).isEqualTo(16);
        assertThat(kernel.calls).containsSubsequence("mmap 10 refused", "mmap 11 refused", "mmap 12 pages=16",
                "mmap 13 pages=16");
        assertThat(capture.describe()).contains("2 x 68 KiB locked (smaller than the 260 KiB asked");
        capture.close();

        kernel.mapLimit = 8L * PAGE;
        PerCpuPerfCapture tooSmall = capture(4096, 64, 100);
        assertThatThrownBy(() -> tooSmall.start(new int[0])).isInstanceOf(PerfCaptureUnavailableException.class)
                .hasMessageContaining("locked memory");
    }

    @Test
    void whenOnlySomeCpusRingsFitEveryCpusRingIsMappedSmaller() throws Exception {
        kernel.pagesLeft = 100;
        PerCpuPerfCapture capture = capture(4096, 64, 100);
        capture.start(new int[0]);
        assertThat(kernel.calls).containsSubsequence("mmap 10 pages=64", "mmap 11 refused", "munmap",
                "mmap 12 pages=32", "mmap 13 pages=32");
        assertThat(kernel.closed).containsExactly(11, 10);
        assertThat(capture.dataPages()).isEqualTo(32);
    }

    @Test
    void moreThreadsThanAQuarterOfTheOpenFileLimitAllowsAreRefusedBeforeAnyEventOpens() {
        PerCpuPerfCapture capture = capture(8, 64, 100, 101, 102);
        assertThatThrownBy(() -> capture.start(new int[0])).isInstanceOf(PerfCaptureUnavailableException.class)
                .hasMessageContaining("3 threads on 2 CPUs need 6 descriptors");
        assertThat(kernel.calls).isEmpty();
    }

    @Test
    void kernelFramesRefusedFallBackToUserSpaceOnly() throws Exception {
        kernel.refuseKernelWith = 13;
        PerCpuPerfCapture capture = new PerCpuPerfCapture(new PerfCaptureSettings(1, 1_000_000L, 16 * KIB, 32, 1024,
                true), kernel, new PerfCaptureGrowthTest.Threads(100), new int[] {0}, 4096, 64);
        capture.start(new int[0]);
        assertThat(capture.kernelFrames()).isFalse();
        assertThat(kernel.calls).startsWith("open 100@0 refused", "open 100@0 inherit stack=16384 -> 10");
    }

    @Test
    void aGrownThreadGetsEventsOfItsOwnAndItsInheritedSamplesAreLeftOut() throws Exception {
        PerCpuPerfCapture capture = capture(4096, 64, 100, 101);
        capture.start(new int[0]);
        kernel.calls.clear();

        assertThat(capture.growStack(101, 32 * KIB, this::deliver)).isTrue();
        assertThat(kernel.calls).containsExactly(
                "open 101@0 stack=32768 -> 14", "output 14 -> 10",
                "open 101@1 stack=32768 -> 15", "output 15 -> 11", "enable 14", "enable 15");
        assertThat(capture.stackBytes(101)).isEqualTo(32 * KIB);
        assertThat(capture.growStack(101, 32 * KIB, this::deliver)).as("already that large").isFalse();

        kernel.sample(0, 101, 16 * KIB);
        kernel.sample(0, 101, 32 * KIB);
        kernel.sample(1, 100, 16 * KIB);
        capture.drain(this::deliver);
        assertThat(delivered).containsExactly("101:32768", "100:16384");
        assertThat(capture.superseded()).isEqualTo(1);

        capture.refreshThreads(); // 101 still lives
        assertThat(kernel.closed).isEmpty();

        delivered.clear();
        assertThat(capture.growStack(101, PerfCaptureSettings.MAX_STACK_BYTES, this::deliver)).isTrue();
        assertThat(kernel.closed).as("the smaller copy's own events").containsExactly(14, 15);
        kernel.sample(1, 101, 65_000); // the kernel cuts the largest copy so that the record fits 16 bits
        kernel.sample(1, 101, 16 * KIB);
        capture.drain(this::deliver);
        assertThat(delivered).containsExactly("101:65000");
    }

    @Test
    void theEventsOfAGrownThreadThatEndedAreClosedButThoseOfStartUpThreadsStay() throws Exception {
        PerfCaptureGrowthTest.Threads threads = new PerfCaptureGrowthTest.Threads(100, 101);
        PerCpuPerfCapture capture = new PerCpuPerfCapture(new PerfCaptureSettings(1, 1_000_000L, 16 * KIB, 32, 1024,
                false), kernel, threads, new int[] {0, 1}, 4096, 64);
        capture.start(new int[0]);
        capture.growStack(101, 32 * KIB, this::deliver);
        threads.now = new int[] {100};
        capture.refreshThreads();
        // Closing a start-up thread's inherited events would end those of the threads it started.
        assertThat(kernel.closed).containsExactly(14, 15);
        assertThat(capture.sampling(101)).isFalse();
        assertThat(capture.sampling(100)).isTrue();
    }

    @Test
    void eventsAreInheritedByThreadsOnlyAndAForkedProcesssSamplesAreLeftOutWhereTheKernelCannot() throws Exception {
        PerCpuPerfCapture capture = capture(4096, 64, 100);
        capture.start(new int[0]);
        assertThat(FakeKernel.flags(kernel.attrs.get(10)) & (1L << 35)).as("inherit_thread").isNotZero();
        capture.close();

        kernel.oldKernel = true;
        kernel.calls.clear();
        PerCpuPerfCapture old = capture(4096, 64, 100);
        old.start(new int[0]);
        assertThat(kernel.calls).startsWith("open 100@0 EINVAL", "open 100@0 inherit stack=16384 -> 12");
        kernel.sampleOf(4242, 0, 4243, 16 * KIB); // a shell the JVM forked, which inherited the event
        kernel.sample(0, 100, 16 * KIB);
        old.drain(this::deliver);
        assertThat(delivered).containsExactly("100:16384");
        assertThat(old.foreign()).isEqualTo(1);
    }

    @Test
    void switchesAskedForAreReportedByThreadAndLostRecordsSayAnyThreadMayHaveRun() throws Exception {
        PerCpuPerfCapture plain = capture(4096, 64, 100);
        plain.start(new int[0]);
        assertThat(FakeKernel.flags(kernel.attrs.get(10)) & (1L << 26)).as("no context_switch unless asked").isZero();
        plain.close();

        List<String> told = new ArrayList<>();
        PerCpuPerfCapture capture = capture(4096, 64, 100, 101);
        assertThat(capture.onThreadSwitched(new SampleCapture.SwitchListener() {
            @Override
            public void switched(int tid, int kind, long time) {
                told.add("switched " + tid + " " + kind + " at " + time);
            }

            @Override
            public void lost() {
                told.add("lost");
            }
        })).isTrue();
        capture.start(new int[] {101});
        long inherited = FakeKernel.flags(kernel.attrs.get(12));
        assertThat(inherited & (1L << 26)).as("context_switch").isNotZero();
        assertThat(inherited & (1L << 18)).as("sample_id_all, for the thread's id").isNotZero();
        assertThat(FakeKernel.flags(kernel.attrs.get(14)) & (1L << 26)).as("the profiler's own threads' events")
                .isZero();

        kernel.switchRecord(0, 1, 100, 0, 1_000);                   // onto the CPU
        kernel.switchRecord(0, 1, 100, (1 << 13) | (1 << 14), 2_000); // off it, preempted
        kernel.switchRecord(0, 1, 100, 1 << 13, 3_000);              // off it to wait
        kernel.switchRecord(1, 4242, 4243); // a process the JVM forked
        kernel.sample(1, 100, 16 * KIB);
        kernel.lostRecord(0, 2);
        assertThat(capture.drain(this::deliver)).isEqualTo(1);
        assertThat(told).containsExactlyInAnyOrder("switched 100 0 at 1000", "switched 100 1 at 2000",
                "switched 100 2 at 3000", "lost");
        capture.close();
    }

    @Test
    void samplesWithoutRoomWaitInTheRingsForTheNextDrain() throws Exception {
        PerCpuPerfCapture capture = capture(4096, 64, 100, 101);
        capture.start(new int[0]);
        assertThat(capture.holdsBack()).isTrue();
        kernel.sample(0, 100, 16 * KIB);
        kernel.sample(0, 101, 16 * KIB);
        kernel.sample(1, 100, 16 * KIB);
        int[] room = {1};
        assertThat(capture.drain(this::deliver, () -> room[0]-- > 0)).as("handed while there was room").isEqualTo(1);
        assertThat(delivered).containsExactly("100:16384");
        assertThat(capture.drain(this::deliver, () -> false)).as("no room: nothing read").isZero();
        assertThat(capture.drain(this::deliver)).as("the rest, still in the rings").isEqualTo(2);
        assertThat(delivered).containsExactly("100:16384", "101:16384", "100:16384");
        capture.close();
    }

    @Test
    void onlineCpuListsAreRead() {
        assertThat(OnlineCpus.parse("0-3,8,10-11\n")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(OnlineCpus.parse("0")).containsExactly(0);
        assertThat(OnlineCpus.parse("3-1")).isEmpty();
        assertThat(OnlineCpus.list()).isNotEmpty();
        assertThat(OpenFileLimit.parse("Limit Soft Hard Units\nMax open files            1024  524288  files\n"))
                .isEqualTo(1024);
        assertThat(OpenFileLimit.parse("Max open files   unlimited unlimited files")).isEqualTo(Long.MAX_VALUE);
    }
}
