package io.mixflame.platform;

import io.mixflame.capture.ThreadCapture;
import io.mixflame.image.ModuleMap;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.ThreadSource;

/**
 * Another process (or this one) as the profiler's stages see it, whatever the system: its memory, its module map,
 * its threads, and a way to capture one of them. Made by {@code platform.host.TargetProcesses.open}, the one place that knows
 * which system the profiler runs on.
 */
public interface TargetProcess extends AutoCloseable {

    /** The process id. */
    long pid();

    /** Its memory, through a reader that cannot crash this JVM. */
    ProcessMemory memory();

    /** Its modules and memory regions. */
    ModuleMap modules();

    /** Its threads. */
    ThreadSource threads();

    /**
     * Why its running threads cannot be stopped for a moment from this process, or null when they can: asked once,
     * before sampling starts, by stopping one of them (where stopping needs a permission the system may refuse).
     */
    default String stopRefusal() {
        return null;
    }

    /** A capture of its threads on demand, copying at most {@code stackBytes} of each stack. */
    ThreadCapture threadCapture(int stackBytes);

    /**
     * How many reads of its memory have been asked of the system, by every reader of it the profiler holds
     * ({@link ProcessMemory#systemReads()}), or -1 when they are not counted.
     */
    default long systemReads() {
        return memory().systemReads();
    }

    /** Releases handles and buffers. */
    @Override
    void close();
}
