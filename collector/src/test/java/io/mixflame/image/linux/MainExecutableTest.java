package io.mixflame.image.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleCache;
import io.mixflame.process.linux.LinuxProcessMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The main executable of a process is the module mapped from the file its {@code /proc/PID/exe} links to. */
@EnabledOnOs(value = OS.LINUX, disabledReason = "reads /proc")
class MainExecutableTest {

    @Test
    void thisJvmsMainExecutableIsItsJavaLauncher() throws Exception {
        long pid = ProcessHandle.current().pid();
        try (LinuxProcessMemory memory = new LinuxProcessMemory(pid)) {
            ProcModuleMap modules = new ProcModuleMap(pid, memory, ModuleCache.shared());
            modules.refresh();

            LoadedModule main = modules.mainExecutable();

            assertThat(main).isNotNull();
            assertThat(main.image().path()).isEqualTo(Files.readSymbolicLink(Path.of("/proc/self/exe")).toString())
                    .endsWith("/bin/java");
            assertThat(main.image().name()).isEqualTo("java");
        }
    }

    @Test
    void aProcessThatCannotBeReadHasNoMainExecutable() throws Exception {
        try (LinuxProcessMemory memory = new LinuxProcessMemory(ProcessHandle.current().pid())) {
            ProcModuleMap modules = new ProcModuleMap(Integer.MAX_VALUE, memory, ModuleCache.shared());

            assertThat(modules.mainExecutable()).isNull();
        }
    }
}
