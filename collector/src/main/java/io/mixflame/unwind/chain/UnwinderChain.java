package io.mixflame.unwind.chain;

import io.mixflame.capture.CpuArchitecture;
import io.mixflame.capture.HostArchitecture;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.unwind.FramePointerUnwinder;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.Unwinder;
import io.mixflame.unwind.dwarf.DwarfUnwinder;
import io.mixflame.unwind.hotspot.HotSpotFrameRules;
import io.mixflame.unwind.hotspot.HotSpotUnwinder;
import io.mixflame.unwind.hotspot.HotSpotFrameRulesFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

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
        HotSpotFrameRules rules = vm != null ? hotSpotFrameRules(vm) : null;
        if (rules != null) {
            chain.add(new HotSpotUnwinder(vm, rules));
        }
        // Each native unwinder reads one format of unwind data and declines modules with another, so one chain
        // serves ELF and PE processes alike.
        chain.add(new DwarfUnwinder());
        chain.add(pe.unwinder());
        chain.add(new FramePointerUnwinder());
        return chain;
    }

    /**
     * How HotSpot lays out its frames on the architecture the profiler runs on, or null where no rules are built for
     * it (the captures that read registers refuse such an architecture anyway; a walk there has no Java frames).
     */
    static HotSpotFrameRules hotSpotFrameRules(HotSpotVm vm) {
        HotSpotFrameRulesFactory factory = RulesOfHost.FACTORY;
        return factory != null ? factory.create(vm) : null;
    }

    /** The host's rules, looked up once, when the first chain with a JVM is built. */
    private static final class RulesOfHost {
        static final HotSpotFrameRulesFactory FACTORY = rulesFor(HostArchitecture.current());

        private RulesOfHost() {
        }
    }

    /** The factory listed as a service whose rules are {@code architecture}'s; null when none is. */
    static HotSpotFrameRulesFactory rulesFor(CpuArchitecture architecture) {
        try {
            for (HotSpotFrameRulesFactory f : ServiceLoader.load(HotSpotFrameRulesFactory.class,
                    HotSpotFrameRulesFactory.class.getClassLoader())) {
                if (f.isFor(architecture)) {
                    return f;
                }
            }
        } catch (ServiceConfigurationError e) {
            // A broken services entry is the jar's defect; the walk goes on without Java frames rather than failing.
            return null;
        }
        return null;
    }
}
