package io.mixflame.engine.linux;

import io.mixflame.engine.SampleStackBuilder;
import io.mixflame.engine.ThreadLifeNames;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.process.OwnPid;
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

    /**
     * Has {@code stacks} take the names threads tell as they start and end, where {@code pid} is the profiler's own
     * process and the JVM tells them: what to close as the profile stops, or null.
     */
    public static ThreadLifeNames hearThreadLife(SampleStackBuilder stacks, long pid) {
        if (pid != OwnPid.get()) {
            return null;
        }
        ThreadLifeNames told = JvmtiThreadLifeNames.open();
        if (told != null) {
            stacks.hearThreadLife(told);
        }
        return told;
    }

    /** The cost note's line on the names threads told: null without them. */
    public static String toldNote(ThreadLifeNames told) {
        if (told == null) {
            return null;
        }
        long dropped = told.dropped();
        return told.told() + " thread names told by the threads as they started and ended"
                + (dropped == 0 ? "" : ", " + dropped + " more that did not fit (read from the JVM's list instead)");
    }
}
