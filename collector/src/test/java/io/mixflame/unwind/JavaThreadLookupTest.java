package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaThreadNames;
import io.mixflame.hotspot.VmReader;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.testapp.NamedThreadApp;
import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One thread's Java name looked up from outside: a Java thread by its id; a thread that is not a Java thread (the
 * collector's) makes the JVM's list be read again at most twice, not at every look-up, however many threads there are.
 */
class JavaThreadLookupTest {

    @Test
    void aJavaThreadIsNamedAndAThreadNotOnTheListStopsCostingReads() throws Exception {
        try (ChildProcess app = ChildProcess.java(Path.of(System.getProperty("java.home")), List.of(),
                "io.mixflame.testapp.NamedThreadApp");
             LinuxProcessMemory memory = new LinuxProcessMemory(app.pid())) {
            JavaThreadNames names = namesOnceReady(app, memory);
            int named = threadCalled(app.pid(), "mixflame-worker");
            int collector = threadCalled(app.pid(), "GC Thread");
            assertThat(names.nameOf(named)).isEqualTo(NamedThreadApp.NAME);

            long[] readsPerLookup = new long[3];
            for (int i = 0; i < 3; i++) {
                Thread.sleep(250); // past the shortest time between two readings of the list
                long before = memory.systemReads();
                assertThat(names.nameOf(collector)).as("a thread that is not a Java thread").isNull();
                readsPerLookup[i] = memory.systemReads() - before;
            }
            assertThat(readsPerLookup[0]).as("the list read again for a thread it does not know").isPositive();
            assertThat(readsPerLookup[1]).as("and once more, for a Java thread only starting").isPositive();
            assertThat(readsPerLookup[2]).as("then no more").isZero();
            assertThat(names.nameOf(named)).as("a known thread still named").isEqualTo(NamedThreadApp.NAME);
        }
    }

    /**
     * Every thread's name of a JVM with 300 threads, all at once and for a list of new ones, in a few dozen reads:
     * gathered, not the ten or so a thread one after another would take (each read a call into native code, whose
     * return waits out a safepoint in progress).
     */
    @Test
    void threeHundredThreadsAreNamedInAFewDozenReads() throws Exception {
        int pooled = 300;
        try (ChildProcess app = ChildProcess.java(Path.of(System.getProperty("java.home")), List.of(),
                "io.mixflame.testapp.NamedThreadApp", Integer.toString(pooled));
             LinuxProcessMemory memory = new LinuxProcessMemory(app.pid())) {
            JavaThreadNames names = namesOnceReady(app, memory);

            Map<Integer, String> all = new HashMap<>();
            long before = memory.systemReads();
            assertThat(names.readChanged(all::put)).isTrue();
            long allReads = memory.systemReads() - before;
            Set<String> expected = new HashSet<>();
            for (int i = 0; i < pooled; i++) {
                expected.add("pooled-" + i);
            }
            expected.add(NamedThreadApp.NAME);
            assertThat(all.values()).containsAll(expected);
            // The list (3 reads and 3 gathered), the names' references (4 gathered), the Strings (3 gathered and one
            // read each): about 320 here, against more than 3 000 a thread at a time.
            assertThat(allReads).as("reads for every name").isLessThan(2L * all.size());

            before = memory.systemReads();
            assertThat(names.readChanged((tid, name) -> assertThat(all.get(tid)).isEqualTo(name))).isTrue();
            assertThat(memory.systemReads() - before).as("reads for names none of which changed").isLessThan(30);

            int[] tids = all.keySet().stream().mapToInt(Integer::intValue).toArray();
            String[] found = new String[tids.length];
            before = memory.systemReads();
            names.namesOf(tids, tids.length, found);
            assertThat(memory.systemReads() - before).as("reads for the names of known threads")
                    .isLessThan(30L + tids.length);
            for (int i = 0; i < tids.length; i++) {
                assertThat(found[i]).as("thread %d", tids[i]).isEqualTo(all.get(tids[i]));
            }
        }
    }

    /** A reader of the names of {@code app}'s threads, once it says it is ready. */
    private static JavaThreadNames namesOnceReady(ChildProcess app, LinuxProcessMemory memory) throws Exception {
        app.readUntil("ready");
        ModuleMap modules = new ProcModuleMap(app.pid(), memory, ModuleCache.shared());
        modules.refresh();
        HotSpotVm vm = HotSpotVm.attach(modules, new VmReader(memory)).orElseThrow();
        return vm.threadNames(new VmReader(memory));
    }

    private static int threadCalled(long pid, String prefix) throws Exception {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                if (Files.readAllLines(task.resolve("comm")).get(0).startsWith(prefix)) {
                    return Integer.parseInt(task.getFileName().toString());
                }
            }
        }
        throw new AssertionError("no thread called " + prefix + "* in " + pid);
    }
}
