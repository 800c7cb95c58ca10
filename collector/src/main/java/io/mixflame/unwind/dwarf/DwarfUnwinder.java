package io.mixflame.unwind.dwarf;

import io.mixflame.image.dwarf.DwarfExpression;
import io.mixflame.image.dwarf.RegisterRule;
import io.mixflame.image.dwarf.CallFrameInfo;
import io.mixflame.image.dwarf.CfiRule;
import io.mixflame.process.MemoryReadException;
import io.mixflame.cache.LongKeyedCache;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleMap;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.Unwinder;

/**
 * Unwinds frames of native code that has DWARF call frame information, by the rules of its module's
 * {@link CfiTable}. When the rule needs the frame pointer and the capture did not include it (a thread captured
 * from {@code /proc}, which gives only sp and pc), the frame pointer is searched for on the stack by
 * {@link FramePointerSearch}.
 */
public final class DwarfUnwinder implements Unwinder {
    private final FrameExpressionInputs inputs = new FrameExpressionInputs();
    /**
     * What the last {@link #canUnwindFrom} found, for the {@link #tryUnwind} the walker makes next on the same
     * frame: the module search and the CFI lookup are the walk's main per-frame cost, and are done once.
     */
    private UnwindContext foundFor;
    private long foundPc;
    private LoadedModule foundModule;
    private CallFrameInfo foundCfi;
    private CfiRule foundRule;
    /**
     * What was found for each pc, while the set of modules stays the same: the same return addresses come back in
     * sample after sample, and finding a rule anew is a search of the module map and a binary search of the
     * module's FDE index (a tenth of the walker's time in steady state).
     */
    private final LongKeyedCache<Found> byPc = new LongKeyedCache<>(PC_CACHE);
    private ModuleMap cachedFor;
    private int cachedGeneration;

    private static final int PC_CACHE = 16_384;

    /** A pc's module, unwind data and rule (null where it has none). */
    private static final class Found {
        final LoadedModule module;
        final CallFrameInfo cfi;
        final CfiRule rule;

        Found(LoadedModule module, CallFrameInfo cfi, CfiRule rule) {
            this.module = module;
            this.cfi = cfi;
            this.rule = rule;
        }
    }

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        return find(context);
    }

    /** Looks the frame's rule up into the found fields; whether there is one. */
    private boolean find(UnwindContext context) {
        long pc = context.lookupPc();
        ModuleMap modules = context.modules();
        if (modules != cachedFor || modules.generation() != cachedGeneration) {
            byPc.clear();
            cachedFor = modules;
            cachedGeneration = modules.generation();
        }
        Found found = byPc.get(pc);
        if (found == null) {
            LoadedModule module = modules.moduleAt(pc);
            CallFrameInfo cfi = module != null && module.image().unwindData() instanceof CallFrameInfo c ? c : null;
            found = new Found(module, cfi, cfi == null ? null : cfi.find(pc - module.bias()));
            // An address in no module may be in one loaded later, which changes the generation.
            byPc.put(pc, found);
        }
        foundFor = context;
        foundPc = pc;
        foundModule = found.module;
        foundCfi = found.cfi;
        foundRule = found.rule;
        return foundRule != null;
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        if ((foundFor != context || foundPc != context.lookupPc()) && !find(context)) {
            return UnwindStatus.FAILED;
        }
        foundFor = null;
        LoadedModule module = foundModule;
        CallFrameInfo cfi = foundCfi;
        CfiRule rule = foundRule;
        if (rule == null) {
            return UnwindStatus.FAILED;
        }
        if (rule.returnAddress().kind() == RegisterRule.Kind.UNDEFINED) {
            return UnwindStatus.COMPLETED;
        }
        Registers r = context.registers();
        context.setGuessedFramePointer(false);
        try {
            long cfa;
            if (rule.cfaExpression() != null) {
                cfa = rule.cfaExpression().evaluate(inputs.of(r, context.memory()), null);
            } else {
                int base = rule.cfaRegister();
                if (!r.isKnown(base)) {
                    if (base != Registers.RBP || !FramePointerSearch.recover(context, module, cfi, rule)) {
                        return UnwindStatus.FAILED;
                    }
                    context.setGuessedFramePointer(true);
                }
                cfa = r.get(base) + rule.cfaOffset();
            }
            long returnAddress = value(rule.returnAddress(), cfa, context, Registers.RIP);
            boolean fpKnown = true;
            long fp = 0;
            try {
                fp = value(rule.fp(), cfa, context, Registers.RBP);
            } catch (UnknownRegister e) {
                fpKnown = false;
            }
            r.set(Registers.RSP, cfa);
            r.set(Registers.RIP, returnAddress);
            if (fpKnown) {
                r.set(Registers.RBP, fp);
            } else {
                r.forget(Registers.RBP);
            }
            context.setSignalFrame(rule.signalFrame());
            return UnwindStatus.UNWOUND;
        } catch (MemoryReadException | DwarfExpression.EvaluationException | UnknownRegister e) {
            return UnwindStatus.FAILED;
        }
    }

    /** The caller's value of a register under a rule. */
    private long value(RegisterRule rule, long cfa, UnwindContext context, int register)
            throws MemoryReadException, DwarfExpression.EvaluationException, UnknownRegister {
        Registers r = context.registers();
        return switch (rule.kind()) {
            case SAVED_AT -> context.memory().readLong(cfa + rule.offset());
            case VALUE_AT -> cfa + rule.offset();
            case SAME -> {
                if (!r.isKnown(register)) {
                    throw UnknownRegister.INSTANCE;
                }
                yield r.get(register);
            }
            case IN_REGISTER -> {
                int other = (int) rule.offset();
                if (!r.isKnown(other)) {
                    throw UnknownRegister.INSTANCE;
                }
                yield r.get(other);
            }
            case SAVED_AT_EXPRESSION -> context.memory().readLong(rule.expression().evaluate(inputs.of(r, context.memory()), cfa));
            case VALUE_OF_EXPRESSION -> rule.expression().evaluate(inputs.of(r, context.memory()), cfa);
            case UNDEFINED -> throw UnknownRegister.INSTANCE;
        };
    }

    /** The caller's value of a register is not known; cheap, it happens at every frame of an sp-only capture. */
    private static final class UnknownRegister extends Exception {
        private static final long serialVersionUID = 1L;
        static final UnknownRegister INSTANCE = new UnknownRegister();

        private UnknownRegister() {
            super(null, null, false, false);
        }
    }
}
