package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The censuses of this JVM's code heaps taken ahead of the walker by a native thread: while records wait unread in a
 * watched ring, or while the walker is at a sample taken long before, and not while it waits for samples with the
 * rings read. Applied by the walker, they list the blobs the code cache's index finds; a method compiled meanwhile is
 * among them, read from the copy of its header the thread took as it found it.
 */
@EnabledOnOs(OS.LINUX)
class CodeHistoryAheadTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static volatile long sink;

    @Test
    void recordsWaitingInAWatchedRingHaveCensusesTakenAndANewCompilationReadFromItsCopy() throws Exception {
        HotSpotVm vm = ownVm();
        // A ring in perf's layout whose records nobody reads: data_head past data_tail.
        try (Memory ring = new Memory(8192)) {
            ring.clear();
            ring.setLong(1024, 4096);
            assertThat(vm.keepHistoryAhead(new long[] {Pointer.nativeValue(ring)})).as("why not").isNull();
            try {
                vm.walkerWaiting();
                CodeCacheHistory history = awaitHistory(vm);
                warmUp();
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                CodeCacheHistory.Entry compiled = null;
                while (compiled == null && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(20);
                    vm.sampleTakenAt(System.nanoTime());
                    compiled = compiledAheadTarget(vm, history.live());
                }
                assertThat(compiled).as("aheadTarget compiled and found by a later census").isNotNull();
                assertThat(compiled.info).as("read as that census found it").isNotNull();
                assertThat(history.readFromCopies()).as("blobs read from the header copies censuses took")
                        .isPositive();
                assertThat(compiled.info.method()).isEqualTo(compiled.method);
                assertThat(compiled.bornAfter).as("found new, after the first census").isPositive();
                assertAgreesWithTheIndex(vm, history.live());
            } finally {
                vm.stopHistoryAhead(true);
            }
        }
    }

    @Test
    void aWalkerAtAnOldSampleHasCensusesTakenAndAWaitingOneNone() throws Exception {
        HotSpotVm vm = ownVm();
        assertThat(vm.keepHistoryAhead(new long[0])).as("why not").isNull();
        try {
            vm.walkerWaiting();
            // Ten of the thread's looks, and twice the lag it waits for: nothing waits, no census is taken.
            TimeUnit.MILLISECONDS.sleep(300);
            vm.sampleTakenAt(0);
            assertThat(vm.codeHistory()).as("no census while the walker waits for samples").isNull();
            assertThat(vm.historyNote()).isNull();

            // At a sample taken a second ago, and staying there.
            vm.sampleTakenAt(System.nanoTime() - TimeUnit.SECONDS.toNanos(1));
            CodeCacheHistory history = awaitHistory(vm);
            assertThat(history.live().size()).as("blobs in a JVM that has run tests").isGreaterThan(200);
            assertThat(vm.historyNote()).contains("censuses by a native thread while walks were late");
        } finally {
            vm.stopHistoryAhead(true);
        }
    }

    private static HotSpotVm ownVm() throws Exception {
        LinuxProcessMemory memory = new LinuxProcessMemory(OwnPid.get());
        ProcModuleMap modules = new ProcModuleMap(OwnPid.get(), memory, ModuleCache.shared());
        modules.refresh();
        return HotSpotVm.attach(modules, new VmReader(memory)).orElseThrow();
    }

    /** Applies the censuses as a walk would, until one came; the walker's word is left as it was. */
    private static CodeCacheHistory awaitHistory(HotSpotVm vm) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (System.nanoTime() < deadline) {
            vm.applyHistoryAhead();
            if (vm.codeHistory() != null) {
                return vm.codeHistory();
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        throw new AssertionError("no census in " + DEADLINE_NANOS / 1_000_000_000L + " s: " + vm.aheadCounts());
    }

    private static CodeCacheHistory.Entry compiledAheadTarget(HotSpotVm vm, List<CodeCacheHistory.Entry> live) {
        for (CodeCacheHistory.Entry e : live) {
            if (e.method != 0) {
                JavaMethod m = vm.method(e.method);
                if (m != null && m.name().equals("aheadTarget") && e.bornAfter > 0) {
                    return e;
                }
            }
        }
        return null;
    }

    private static void assertAgreesWithTheIndex(HotSpotVm vm, List<CodeCacheHistory.Entry> blobs) {
        int agree = CodeHeapCensusTest.agreeing(vm, blobs);
        // The JIT goes on compiling and freeing between the census and the lookups: a few may differ.
        assertThat(agree).as("of %d blobs, those the index finds the same", blobs.size())
                .isGreaterThanOrEqualTo(blobs.size() * 98 / 100);
    }

    private static void warmUp() {
        long sum = 0;
        for (int i = 0; i < 300_000; i++) {
            sum += aheadTarget(i);
        }
        sink = sum;
    }

    private static long aheadTarget(int i) {
        return (long) i * 31 ^ (i >>> 5) + i % 7;
    }
}
