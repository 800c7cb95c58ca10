package io.mixflame.engine.linux;

import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.linux.ProcThreadSource;
import java.io.IOException;

/** The sample pipeline of the Linux engines: a {@link SampleStackBuilder} over {@code /proc}'s maps and tasks. */
public final class LinuxSampleStacks {
    private LinuxSampleStacks() {
    }

    /** A builder for the Linux process {@code pid}, reading it through {@code memory}; its maps read once. */
    public static SampleStackBuilder open(long pid, ProcessMemory memory) throws IOException {
        ProcModuleMap modules = new ProcModuleMap(pid, memory, ModuleCache.shared());
        modules.refresh();
        return new SampleStackBuilder(modules, memory, new ProcThreadSource(pid));
    }
}
