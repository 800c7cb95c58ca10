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
import java.util.List;
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
            app.readUntil("ready");
            ModuleMap modules = new ProcModuleMap(app.pid(), memory, ModuleCache.shared());
            modules.refresh();
            HotSpotVm vm = HotSpotVm.attach(modules, new VmReader(memory)).orElseThrow();
            JavaThreadNames names = vm.threadNames(new VmReader(memory));
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
