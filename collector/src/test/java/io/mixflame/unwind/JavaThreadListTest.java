package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaThreadInfo;
import io.mixflame.hotspot.VmReader;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.testapp.NamedThreadApp;
import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The JVM's thread list read from outside: full Java names, OS thread ids, states, whatever the heap's flags. */
class JavaThreadListTest {

    static Stream<Arguments> runs() {
        return ChildProcess.jdks().flatMap(jdk -> Stream.of(
                Arguments.of(jdk, List.of()),
                Arguments.of(jdk, List.of("-XX:-UseCompressedOops"))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void threadsHaveFullJavaNamesAndTheirOsIds(Path jdk, List<String> options) throws Exception {
        try (ChildProcess app = ChildProcess.java(jdk, options, "io.mixflame.testapp.NamedThreadApp");
             LinuxProcessMemory memory = new LinuxProcessMemory(app.pid())) {
            app.readUntil("ready");
            ModuleMap modules = new ProcModuleMap(app.pid(), memory, ModuleCache.shared());
            modules.refresh();
            HotSpotVm vm = HotSpotVm.attach(modules, new VmReader(memory)).orElseThrow();
            assertThat(vm.checksMethodLiveness()).as("symbol counts and method arrays described").isTrue();
            List<JavaThreadInfo> threads = vm.javaThreads();
            assertThat(threads).extracting(JavaThreadInfo::name).contains("main", "Reference Handler", NamedThreadApp.NAME);
            JavaThreadInfo named = threads.stream().filter(t -> NamedThreadApp.NAME.equals(t.name())).findFirst().orElseThrow();
            String comm = Files.readString(Path.of("/proc/" + app.pid() + "/task/" + named.tid() + "/comm")).strip();
            assertThat(NamedThreadApp.NAME).startsWith(comm);
            assertThat(named.stateName()).isEqualTo("blocked");
            assertThat(named.anchorSp()).isBetween(named.stackLow(), named.stackHigh());
        }
    }
}
