package io.mixflame.platform.windows;

import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.windows.WindowsThreadCapture;
import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.windows.WindowsModuleMap;
import io.mixflame.platform.TargetProcess;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.ThreadSource;
import io.mixflame.process.windows.ToolhelpThreadSource;
import io.mixflame.process.windows.WindowsProcessMemory;
import java.io.IOException;

/** A Windows process: ReadProcessMemory, Toolhelp snapshots, VirtualQueryEx, SuspendThread. */
public final class WindowsTargetProcess implements TargetProcess {
    private final long pid;
    private final WindowsProcessMemory memory;
    private final WindowsModuleMap modules;
    private final ToolhelpThreadSource threads;
    private final WindowsProcessMemory imageMemory;

    private WindowsTargetProcess(long pid, WindowsProcessMemory memory) throws IOException {
        this.pid = pid;
        this.memory = memory;
        try {
            // The map reads images through a reader of its own: it refreshes on whichever thread asks.
            this.imageMemory = WindowsProcessMemory.open(pid);
        } catch (IllegalStateException | IllegalArgumentException e) {
            memory.close();
            throw new IOException(e.getMessage());
        }
        this.modules = new WindowsModuleMap(pid, memory.handle(), imageMemory, ModuleCache.shared());
        this.threads = new ToolhelpThreadSource(pid);
        try {
            modules.refresh();
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    /** Opens process {@code pid}; fails when it cannot be opened for reading or its modules cannot be listed. */
    public static WindowsTargetProcess open(long pid) throws IOException {
        WindowsProcessMemory memory;
        try {
            memory = WindowsProcessMemory.open(pid);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        return new WindowsTargetProcess(pid, memory);
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

    /** The reads of the module map's own reader count too: under Wine they cost what a sample's reads cost. */
    @Override
    public long systemReads() {
        return memory.systemReads() + imageMemory.systemReads();
    }

    @Override
    public ThreadCapture threadCapture(int stackBytes) {
        return new WindowsThreadCapture(memory, stackBytes);
    }

    @Override
    public void close() {
        threads.close();
        modules.close();
        memory.close();
    }
}
