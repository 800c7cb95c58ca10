package io.mixflame.unwind.pe;

import io.mixflame.unwind.CodeLineCache;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.pe.PeFormatException;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.image.pe.UnwindInfo;
import io.mixflame.process.ProcessMemory;
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
    /** The module the last {@link #canUnwindFrom} found, for the {@link #tryUnwind} that follows on the same frame. */
    private UnwindContext foundFor;
    private long foundPc;
    private LoadedModule foundModule;
    /** Images' code does not change while mapped: lines are kept 10 s. */
    private final CodeLineCache codeCache = new CodeLineCache(512, 10_000_000_000L, System::nanoTime);
    /** The process whose code {@link #code} reads: the one of the frame being unwound. */
    private ProcessMemory codeProcess;
    private final UnwindMemory code = address -> codeCache.readLong(codeProcess, address);

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        foundFor = context;
        foundPc = context.lookupPc();
        foundModule = context.modules().moduleAt(foundPc);
        return foundModule != null && foundModule.image().unwindData() instanceof PeUnwindTable;
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        LoadedModule module = foundFor == context && foundPc == context.lookupPc() ? foundModule
                : context.modules().moduleAt(context.lookupPc());
        foundFor = null;
        if (module == null || !(module.image().unwindData() instanceof PeUnwindTable table) || context.bounds() == null) {
            return UnwindStatus.FAILED;
        }
        RuntimeFunction entry;
        UnwindInfo info;
        try {
            entry = table.find(context.lookupPc() - module.bias()).orElse(null);
            info = entry == null ? null : table.unwindInfo(entry);
        } catch (PeFormatException e) {
            return UnwindStatus.FAILED;
        }
        codeProcess = context.memory().process();
        PeUnwindStep step = new PeUnwindStep(context.memory()::readLong, code, context.bounds());
        // The function is looked up at pc - 1 for a return address, but the step is given the return address
        // itself, as RtlVirtualUnwind is: the code after the call is what remains to run in the frame.
        return step.unwind(module.bias(), entry, info, context.registers(), context.callSite()).status();
    }
}
