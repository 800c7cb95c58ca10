package io.mixflame.unwind.dwarf;

import io.mixflame.capture.HostRegisters;
import io.mixflame.image.dwarf.DwarfExpression;
import io.mixflame.image.dwarf.RegisterRule;
import io.mixflame.image.dwarf.CallFrameInfo;
import io.mixflame.image.dwarf.CfiRule;
import io.mixflame.process.MemoryReadException;
import io.mixflame.image.LoadedModule;
import io.mixflame.unwind.FrameCode;
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

    @Override
    public boolean canUnwindFrom(UnwindContext context) {
        return rule(context.code()) != null;
    }

    /**
     * The CFI row of the frame's pc, looked up in its module's FDE index the first time any walk meets the pc
     * ({@link FrameCode} keeps it); null where the module has no CFI or no row for the pc.
     */
    private static CfiRule rule(FrameCode code) {
        LoadedModule module = code.module();
        if (module == null || !(module.image().unwindData() instanceof CallFrameInfo cfi)) {
            return null;
        }
        if (!code.ruleKnown()) {
            code.setRule(cfi.find(code.pc() - module.bias()));
        }
        return (CfiRule) code.rule();
    }

    @Override
    public UnwindStatus tryUnwind(UnwindContext context) {
        FrameCode code = context.code();
        CfiRule rule = rule(code);
        if (rule == null) {
            return UnwindStatus.FAILED;
        }
        LoadedModule module = code.module();
        CallFrameInfo cfi = (CallFrameInfo) module.image().unwindData();
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
                    if (base != HostRegisters.FP || !FramePointerSearch.recover(context, module, cfi, rule)) {
                        return UnwindStatus.FAILED;
                    }
                    context.setGuessedFramePointer(true);
                }
                cfa = r.get(base) + rule.cfaOffset();
            }
            long returnAddress = value(rule.returnAddress(), cfa, context, HostRegisters.PC);
            boolean fpKnown = true;
            long fp = 0;
            try {
                fp = value(rule.fp(), cfa, context, HostRegisters.FP);
            } catch (UnknownRegister e) {
                fpKnown = false;
            }
            r.set(HostRegisters.SP, cfa);
            r.set(HostRegisters.PC, returnAddress);
            if (fpKnown) {
                r.set(HostRegisters.FP, fp);
            } else {
                r.forget(HostRegisters.FP);
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
