package io.mixflame.capture.timer;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where a thread's stack ends, for copies with plain loads: never past the thread's own TLS block, the whole mapping
 * only for the main thread's {@code [stack]}, and nowhere the mapping is not anonymous writable memory holding sp.
 */
class StackLocatorTest {
    private static final MemoryMapping CODE = new MemoryMapping(0x1000, 0x9000, true, false, true, 0, 7, "/lib/x.so");
    private static final MemoryMapping THREAD = new MemoryMapping(0x10000, 0x30000, true, true, false, 0, 0, "");
    private static final MemoryMapping FILE = new MemoryMapping(0x40000, 0x50000, true, true, false, 0, 9, "/dev/shm/x");
    private static final MemoryMapping MAIN = new MemoryMapping(0x60000, 0x80000, true, true, false, 0, 0, "[stack]");
    private static final List<MemoryMapping> MAPS = List.of(CODE, THREAD, FILE, MAIN);

    @Test
    void aThreadsStackEndsAtItsThreadPointerInsideItsMapping() {
        assertThat(StackLocator.stackTop(MAPS, 0x20000, 0x2f800)).isEqualTo(0x2f800);
    }

    @Test
    void aThreadPointerOutsideTheMappingLeavesTheStackUnknownUnlessItIsTheMainThreads() {
        assertThat(StackLocator.stackTop(MAPS, 0x20000, 0x90000)).as("another mapping's thread pointer").isZero();
        assertThat(StackLocator.stackTop(MAPS, 0x20000, 0x1f000)).as("a thread pointer below sp").isZero();
        assertThat(StackLocator.stackTop(MAPS, 0x70000, 0x90000)).as("the main thread").isEqualTo(0x80000);
    }

    @Test
    void anSpOutsideAnonymousWritableMemoryHasNoStack() {
        assertThat(StackLocator.stackTop(MAPS, 0x2000, 0x8000)).as("code").isZero();
        assertThat(StackLocator.stackTop(MAPS, 0x41000, 0x4f000)).as("a file").isZero();
        assertThat(StackLocator.stackTop(MAPS, 0x35000, 0x36000)).as("unmapped").isZero();
    }

    @Test
    void theThreadsNotedAreLocatedOnceAndThoseWithoutAStackAreNotNotedAgain() {
        StackLocator locator = new StackLocator();
        locator.note(1, 0x20000, 0x2f800);
        locator.note(1, 0x20008, 0x2f800);
        locator.note(2, 0x35000, 0x36000);
        assertThat(locator.pending()).isTrue();
        List<long[]> found = new ArrayList<>();
        StackLocator.Target target = new StackLocator.Target() {
            @Override
            public int slotOf(int tid) {
                return tid + 10;
            }

            @Override
            public void found(int tid, int slot, long high, long pages) {
                found.add(new long[] {tid, slot, high, pages});
            }
        };
        locator.locate(ProcessHandle.current().pid(), target);
        // This process's own maps are read: the made-up addresses of the test lie in none of its mappings.
        assertThat(found).isEmpty();
        assertThat(locator.pending()).isFalse();
        locator.note(1, 0x20000, 0x2f800);
        locator.note(2, 0x35000, 0x36000);
        assertThat(locator.pending()).as("threads whose stacks were not found are not noted again").isFalse();
    }
}
