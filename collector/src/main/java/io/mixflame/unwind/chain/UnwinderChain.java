package io.mixflame.unwind.chain;

import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.unwind.FramePointerUnwinder;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.Unwinder;
import io.mixflame.unwind.dwarf.DwarfUnwinder;
import io.mixflame.unwind.hotspot.HotSpotFrameRules;
import io.mixflame.unwind.hotspot.HotSpotUnwinder;
import io.mixflame.unwind.hotspot.x64.X64FrameRules;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place the unwinders are put in order, for every walker of the profiler (the perf and wall engines,
 * {@code stacks}, the benchmarks): HotSpot's frames first where there is a JVM (its code has no call frame
 * information worth reading), then the native unwind data of the modules (DWARF call frame information of ELF modules, {@code .pdata} of PE
 * modules), then frame pointers.
 */
public final class UnwinderChain {
    private UnwinderChain() {
    }

    /**
     * A walker for a process.
     *
     * @param vm the process's JVM, or null for native frames only
     */
    public static NativeStackWalker walker(HotSpotVm vm) {
        return walker(vm, PeFrameUnwinding.OWN);
    }

    /**
     * A walker for a process whose PE frames are unwound as {@code pe} says.
     *
     * @throws IllegalStateException when that unwinder is not available here
     */
    public static NativeStackWalker walker(HotSpotVm vm, PeFrameUnwinding pe) {
        return new NativeStackWalker(unwinders(vm, pe), NativeStackWalker.DEFAULT_MAX_DEPTH);
    }

    /** The unwinders in order, for a process with the JVM {@code vm} (or null). */
    public static List<Unwinder> unwinders(HotSpotVm vm) {
        return unwinders(vm, PeFrameUnwinding.OWN);
    }

    private static List<Unwinder> unwinders(HotSpotVm vm, PeFrameUnwinding pe) {
        List<Unwinder> chain = new ArrayList<>(4);
        if (vm != null) {
            chain.add(new HotSpotUnwinder(vm, hotSpotFrameRules(vm)));
        }
        // Each native unwinder reads one format of unwind data and declines modules with another, so one chain
        // serves ELF and PE processes alike.
        chain.add(new DwarfUnwinder());
        chain.add(pe.unwinder());
        chain.add(new FramePointerUnwinder());
        return chain;
    }

    /**
     * How HotSpot lays out its frames on the architecture the profiler runs on: the one place the unwinders' rules
     * are chosen by architecture (x86-64 is the only one built; another adds its package and its case here).
     */
    static HotSpotFrameRules hotSpotFrameRules(HotSpotVm vm) {
        return new X64FrameRules(vm);
    }
}
