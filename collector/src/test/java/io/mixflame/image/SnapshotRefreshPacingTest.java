package io.mixflame.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rereading a process that maps nothing new waits longer each time; a change brings the interval back at once. */
class SnapshotRefreshPacingTest {
    private static final long FIRST = 50_000_000L;
    private static final long LONGEST = 400_000_000L;

    /** A map whose "process" is a list the test sets. */
    private static final class ListedModuleMap extends SnapshotModuleMap {
        List<MemoryMapping> current = new ArrayList<>();

        ListedModuleMap() {
            super("libjvm.so");
        }

        @Override
        public void refresh() {
            install(new ModuleSnapshot(List.copyOf(current), List.of()));
        }

        @Override
        public LoadedModule moduleAt(long address) {
            return null;
        }

        @Override
        public boolean isExecutable(long address) {
            return false;
        }

        @Override
        public MemoryMapping stackRegionContaining(long sp) {
            return null;
        }
    }

    private static MemoryMapping code(long start, long end) {
        return new MemoryMapping(start, end, true, false, true, 0, 42, "/lib/libx.so");
    }

    @Test
    void theIntervalDoublesWhileNothingChangesAndResetsWhenSomethingDoes() throws Exception {
        ListedModuleMap map = new ListedModuleMap();
        map.current.add(code(0x1000, 0x2000));
        map.refresh();
        assertThat(map.refreshNanos()).as("a first reading is a change").isEqualTo(FIRST);
        map.refresh();
        assertThat(map.refreshNanos()).isEqualTo(2 * FIRST);
        map.refresh();
        assertThat(map.refreshNanos()).isEqualTo(4 * FIRST);
        for (int i = 0; i < 10; i++) {
            map.refresh();
        }
        assertThat(map.refreshNanos()).as("bounded").isEqualTo(LONGEST);
        map.current.set(0, code(0x1000, 0x3000));
        map.refresh();
        assertThat(map.refreshNanos()).as("a mapping grown").isEqualTo(FIRST);
        map.refresh();
        map.current.add(new MemoryMapping(0x5000, 0x6000, true, true, false, 0, 0, ""));
        map.refresh();
        assertThat(map.refreshNanos()).as("a mapping added").isEqualTo(FIRST);
        map.refresh();
        map.current.set(1, new MemoryMapping(0x5000, 0x6000, true, false, true, 0, 0, ""));
        map.refresh();
        assertThat(map.refreshNanos()).as("memory made executable").isEqualTo(FIRST);
    }

    @Test
    void anAddressInReservedMemoryIsLookedForAtTheShortestIntervalAnAddressInNoMappingAtTheGrownOne()
            throws Exception {
        ListedModuleMap map = new ListedModuleMap();
        map.current.add(new MemoryMapping(0x10000, 0x20000, false, false, false, 0, 0, ""));
        for (int i = 0; i < 10; i++) {
            map.refresh();
        }
        assertThat(map.refreshNanos()).isEqualTo(LONGEST);
        // The reservation becomes code (a JIT commits it), read for the first time a little later.
        map.current.set(0, code(0x10000, 0x20000));
        long lastRead = System.nanoTime();
        Thread.sleep(FIRST / 1_000_000 + 20);
        map.refreshIfStale();
        if (System.nanoTime() - lastRead < LONGEST) {
            // (A machine that stalled past the grown interval would rightly have read again: nothing to judge then.)
            assertThat(map.snapshot().executable(0x10800)).as("not yet: the grown interval has not passed").isFalse();
        }
        map.refreshSoon();
        assertThat(map.snapshot().executable(0x10800)).as("read again at the shortest interval").isTrue();
    }
}
