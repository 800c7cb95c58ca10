package io.mixflame.unwind.pe;

import io.mixflame.cache.MonotonicClock;
import io.mixflame.process.MemoryReadException;
import io.mixflame.process.MemoryWords;
import io.mixflame.unwind.CodeLineCache;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.pe.PeFormatException;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.process.ProcessMemory;
import io.mixflame.unwind.FrameCode;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.Unwinder;

/**
 * The native unwinder of Windows x64 modules: a frame whose pc lies in a PE image is unwound by that image's
 * {@code .pdata}/{@code .xdata} ({@link PeUnwindStep}); a pc without a RUNTIME_FUNCTION is a leaf. Frames of modules
 * with other unwind data (ELF's CFI), and code outside every module (a JIT's), are declined, so the chain hands them
 * to the unwinder that knows them.
 */
public final class PeUnwinder implements Unwinder {
    /** Images' code does not change while mapped: lines are kept 10 s. */
    private final CodeLineCache codeCache = new CodeLineCache(512, 10_000_000_000L,
            MonotonicClock.NANOS);
    /** Reads code through the line cache (a class, not a lambda: one fewer class spun at start-up). */
    private final class CodeBytes implements MemoryWords {
        @Override
        public long readLong(long address) throws MemoryReadException {
            return codeCache.readLong(codeProcess, address);
        }
    }

    /** The process whose code {@link #code} reads: the one of the frame being unwound. */
    private ProcessMemory codeProcess;
    private final MemoryWords code = new CodeBytes();
    /**
     * A pc's function entry and its decoded unwind info (both null for a leaf function), kept in the frame's
     * {@link FrameCode}: the same return addresses come back in sample after sample, and finding them anew was a
     * binary search of the module's RUNTIME_FUNCTIONs and a decode of its UNWIND_INFO chain per frame, the largest
     * part of a walk's own time on Windows.
     */
    private record Found(RuntimeFunction entry, UnwindInfo info) {
    }

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        LoadedModule module = context.code().module();
        return module != null && module.image().unwindData() instanceof PeUnwindTable;
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        FrameCode frame = context.code();
        LoadedModule module = frame.module();
        if (module == null || !(module.image().unwindData() instanceof PeUnwindTable table) || context.bounds() == null) {
            return UnwindStatus.FAILED;
        }
        long pc = frame.pc();
        if (!frame.ruleKnown()) {
            try {
                RuntimeFunction entry = table.find(pc - module.bias()).orElse(null);
                frame.setRule(new Found(entry, entry == null ? null : table.unwindInfo(entry)));
            } catch (PeFormatException e) {
                // Not kept: the frame fails, as it would again.
                return UnwindStatus.FAILED;
            }
        }
        Found found = (Found) frame.rule();
        RuntimeFunction entry = found.entry();
        UnwindInfo info = found.info();
        codeProcess = context.memory().process();
        PeUnwindStep step = new PeUnwindStep(context.memory(), code, context.bounds());
        // The function is looked up at pc - 1 for a return address, but the step is given the return address
        // itself, as RtlVirtualUnwind is: the code after the call is what remains to run in the frame.
        return step.unwind(module.bias(), entry, info, context.registers(), context.callSite()).status();
    }
}
