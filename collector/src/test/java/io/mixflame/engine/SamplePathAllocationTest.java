package io.mixflame.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.engine.linux.LinuxSampleStacks;
import io.mixflame.process.OwnPid;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.profile.Frame;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The sampling path in steady state allocates nothing on the heap: once its caches hold a stack's frames, walking a
 * captured thread (HotSpot's frames, DWARF's and frame pointers', the stack checked against its limits) and building
 * the profile's frames of it, many times over, leaves the thread's allocated bytes where they were, also while the
 * walks run late and censuses of the code cache are taken. A single object per sample would add at least 16 bytes a
 * build.
 */
@EnabledOnOs(OS.LINUX)
class SamplePathAllocationTest {
    private static final int WARM_UP_BUILDS = 5_000;
    private static final int MEASURED_BUILDS = 20_000;
    private static final int ROUNDS = 5;

    @Test
    void walkingAndBuildingACapturedThreadAllocatesNothingPerSample() throws Exception {
        CountDownLatch parked = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> descend(6, parked), "allocation-test-sleeper");
        sleeper.setDaemon(true);
        sleeper.start();
        parked.await();
        try {
            long pid = OwnPid.get();
            LinuxProcessMemory memory = new LinuxProcessMemory(pid);
            SampleStackBuilder builder = LinuxSampleStacks.open(pid, memory);
            builder.keepCodeHistory(true);
            CapturedThread captured = capture(builder, memory, tidOf(sleeper));
            // As if walked a second after it was taken: the walker then keeps the code cache's history, a census every
            // 100 ms, and the measured builds include those censuses too.
            captured.setTime(captured.time() - 1_000_000_000L);

            int depth = 0;
            for (int i = 0; i < WARM_UP_BUILDS; i++) {
                depth = builder.build(captured, true);
            }
            assertThat(names(builder.frames(), depth)).as("the walk reaches the sleeper's Java frames")
                    .anyMatch(n -> n.endsWith("SamplePathAllocationTest.descend"))
                    .anyMatch(n -> n.contains("LockSupport.park"));

            ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
            long self = Thread.currentThread().getId();
            // The censuses record each blob the JIT adds or frees (an object or two each): while this JVM's JIT is
            // still busy a round may allocate for them, so rounds go on, a few at most, until one allocates less than
            // a byte a build. An object per sample would make every round allocate 16 bytes a build or more.
            List<Long> rounds = new ArrayList<>();
            long allocated = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS && allocated >= MEASURED_BUILDS; round++) {
                long before = threads.getThreadAllocatedBytes(self);
                for (int i = 0; i < MEASURED_BUILDS; i++) {
                    builder.build(captured, true);
                }
                allocated = threads.getThreadAllocatedBytes(self) - before;
                rounds.add(allocated);
            }
            assertThat(allocated).as("bytes allocated by %d builds of a %d-frame stack, in rounds %s",
                    MEASURED_BUILDS, depth, rounds).isLessThan(MEASURED_BUILDS);
            assertThat(builder.codeHistoryNote()).as("the censuses taken meanwhile")
                    .matches("code cache history: [1-9]\\d* censuses.*");
        } finally {
            released = true;
            LockSupport.unpark(sleeper);
        }
    }

    /** The sleeper's stack as the profile names it, root first. */
    private static List<String> names(Frame[] frames, int depth) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < depth; i++) {
            names.add(frames[i].name());
        }
        return names;
    }

    /** Captures the thread while it is blocked, as the wall engine does, into a reusable capture. */
    private static CapturedThread capture(SampleStackBuilder builder, LinuxProcessMemory memory, int tid)
            throws Exception {
        BlockedThreadCapture capture = new BlockedThreadCapture(OwnPid.get(), memory, 64 * 1024);
        CapturedThread captured = new CapturedThread(64 * 1024);
        for (int attempt = 0; attempt < 100; attempt++) {
            if (capture.capture(tid, builder.modules()::stackRegionContaining, captured).isPresent()) {
                return captured;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("thread " + tid + " was never caught blocked");
    }

    private static int tidOf(Thread thread) throws Exception {
        // The kernel's id of a Java thread: its entry in /proc/self/task whose comm is the thread's name.
        for (int attempt = 0; attempt < 100; attempt++) {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    if (thread.getName().startsWith(comm)) {
                        return Integer.parseInt(task.getFileName().toString());
                    }
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no task named " + thread.getName());
    }

    private static volatile boolean released;

    private static void descend(int levels, CountDownLatch parked) {
        if (levels > 0) {
            descend(levels - 1, parked);
            return;
        }
        parked.countDown();
        while (!released) {
            LockSupport.park();
        }
    }
}
