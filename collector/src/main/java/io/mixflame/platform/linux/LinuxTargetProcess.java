package io.mixflame.platform.linux;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.linux.LinuxThreadCapture;
import io.mixflame.capture.ptrace.PtraceCapture;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.platform.TargetProcess;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.linux.ProcThreadSource;
import java.io.IOException;

/** A Linux process: {@code process_vm_readv}, {@code /proc}, ptrace. */
public final class LinuxTargetProcess implements TargetProcess {
    private final long pid;
    private final LinuxProcessMemory memory;
    private final ProcModuleMap modules;
    private final ProcThreadSource threads;

    private LinuxTargetProcess(long pid) throws IOException {
        this.pid = pid;
        this.memory = new LinuxProcessMemory(pid);
        this.modules = new ProcModuleMap(pid, memory, ModuleCache.shared());
        this.threads = new ProcThreadSource(pid);
        try {
            modules.refresh();
        } catch (IOException e) {
            memory.close();
            throw e;
        }
    }

    /** Opens process {@code pid}; fails when its memory map cannot be read. */
    public static LinuxTargetProcess open(long pid) throws IOException {
        return new LinuxTargetProcess(pid);
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public ProcessMemory memory() {
        return memory;
    }

    @Override
    public ModuleMap modules() {
        return modules;
    }

    @Override
    public ThreadSource threads() {
        return threads;
    }

    @Override
    public String stopRefusal() {
        int[] tids = threads().list();
        if (tids.length == 0) {
            return "process " + pid + " has no threads that can be listed";
        }
        try {
            new PtraceCapture(pid).capture(tids[0], memory, new CapturedThread(4096));
            return null;
        } catch (IllegalStateException | LinkageError e) {
            return e.getMessage() + PtracePolicy.describe();
        }
    }

    @Override
    public ThreadCapture threadCapture(int stackBytes) {
        return new LinuxThreadCapture(pid, memory, modules::stackRegionContaining, stackBytes);
    }

    @Override
    public void close() {
        memory.close();
    }
}
