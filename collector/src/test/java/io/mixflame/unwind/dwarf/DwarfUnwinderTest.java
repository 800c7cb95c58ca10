package io.mixflame.unwind.dwarf;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.SyntheticModuleMap;
import io.mixflame.testsupport.CfiInstructions;
import io.mixflame.testsupport.EhFrameBuilder;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.LittleEndianWriter;
import io.mixflame.testsupport.UnwindInfoImage;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One step of a DWARF unwind: the caller's registers from the rule at the pc, over a copy of the stack. */
class DwarfUnwinderTest {
    private static final int RBP = X64Registers.RBP;
    private static final int RSP = X64Registers.RSP;
    private static final int RA = X64Registers.RIP;
    /** Where the module is mapped; its link-time addresses start at 0. */
    private static final long BIAS = 0x7f00_0000_0000L;
    /** A function with a frame-pointer prologue: push %rbp (1 byte), mov %rsp,%rbp (3 bytes). */
    private static final long FP_FUNCTION = 0x1000;
    /** A function whose CFA and saved registers are given by expressions. */
    private static final long EXPRESSION_FUNCTION = 0x2000;
    /** A thread's first function: its return address is undefined. */
    private static final long ENTRY_FUNCTION = 0x3000;
    /** A signal trampoline. */
    private static final long SIGNAL_FUNCTION = 0x4000;
    private static final long STACK_LOW = 0x7ffc_0000_0000L;
    private static final long STACK_HIGH = STACK_LOW + 0x1000;
    private static final long SP = STACK_LOW + 0x100;
    private static final long CALLER_PC = BIAS + 0x5123;
    private static final long CALLER_FP = STACK_LOW + 0x800;

    private final FakeProcessMemory process = new FakeProcessMemory();
    private final byte[] stackCopy = new byte[(int) (STACK_HIGH - STACK_LOW)];
    private UnwindContext context;
    private final DwarfUnwinder unwinder = new DwarfUnwinder();

    @BeforeEach
    void setUp() {
        EhFrameBuilder eh = UnwindInfoImage.ehFrame();
        int cie = eh.standardCie();
        eh.fde(cie, FP_FUNCTION, 0x40, new CfiInstructions()
                .advanceLoc(1).defCfaOffset(16).offset(RBP, 2)
                .advanceLoc(3).defCfaRegister(RBP));
        eh.fde(cie, EXPRESSION_FUNCTION, 0x10, new CfiInstructions()
                // CFA = rsp + 32; the return address at CFA - 16; the caller's rbp is CFA - 48.
                .defCfaExpression(new byte[] {0x77, 0x20})
                .expression(RA, new byte[] {0x11, 0x10, 0x1c})
                .valExpression(RBP, new byte[] {0x11, 0x30, 0x1c}));
        eh.fde(cie, ENTRY_FUNCTION, 0x10, new CfiInstructions().undefined(RA));
        int signal = eh.cie("zRS", EhFrameBuilder.PCREL_SDATA4, 1, -8, RA,
                new CfiInstructions().defCfa(RSP, 8).offset(RA, 1));
        eh.fde(signal, SIGNAL_FUNCTION, 0x10, new CfiInstructions());
        ModuleMap modules = new SyntheticModuleMap()
                .readWrite(STACK_LOW, STACK_HIGH)
                .module("libsynthetic.so", BIAS, BIAS + 0x10000, BIAS, UnwindInfoImage.indexed(eh))
                .build();
        StackMemory stack = new StackMemory(process);
        stack.setCopy(STACK_LOW, stackCopy, stackCopy.length);
        context = new UnwindContext(stack, modules);
        context.setBounds(new StackBounds(STACK_LOW, STACK_HIGH));
    }

    private void onStack(long address, long value) {
        byte[] b = new LittleEndianWriter().u64(value).toByteArray();
        System.arraycopy(b, 0, stackCopy, (int) (address - STACK_LOW), 8);
    }

    private Registers at(long linkTimePc, long sp) {
        Registers r = context.registers();
        r.clear();
        r.set(RA, BIAS + linkTimePc);
        r.set(RSP, sp);
        return r;
    }

    @Test
    void aRuleFoundForAPcIsFoundAnewOnceTheModulesChange() {
        // The same address, after the library was unloaded and another, without unwind data there, mapped in its place.
        EhFrameBuilder other = UnwindInfoImage.ehFrame();
        other.fde(other.standardCie(), ENTRY_FUNCTION, 0x10, new CfiInstructions().undefined(RA));
        ModuleMap before = context.modules();
        ModuleMap after = new SyntheticModuleMap()
                .readWrite(STACK_LOW, STACK_HIGH)
                .module("libother.so", BIAS, BIAS + 0x10000, BIAS, UnwindInfoImage.indexed(other))
                .build();
        SwitchedModuleMap modules = new SwitchedModuleMap(before);
        StackMemory stack = new StackMemory(process);
        stack.setCopy(STACK_LOW, stackCopy, stackCopy.length);
        context = new UnwindContext(stack, modules);
        context.setBounds(new StackBounds(STACK_LOW, STACK_HIGH));
        at(FP_FUNCTION, SP);

        assertThat(unwinder.canUnwindFrom(context)).as("the first library's rule").isTrue();
        modules.switchTo(after);
        assertThat(unwinder.canUnwindFrom(context)).as("no rule in the library mapped there now").isFalse();
        modules.switchTo(before);
        assertThat(unwinder.canUnwindFrom(context)).isTrue();
    }

    /** A process whose modules change: another map's modules and a new generation each time. */
    private static final class SwitchedModuleMap implements ModuleMap {
        private ModuleMap now;
        private int generation;

        SwitchedModuleMap(ModuleMap first) {
            now = first;
        }

        void switchTo(ModuleMap next) {
            now = next;
            generation++;
        }

        @Override
        public int generation() {
            return generation;
        }

        @Override
        public java.util.List<io.mixflame.process.MemoryMapping> mappings() {
            return now.mappings();
        }

        @Override
        public java.util.List<io.mixflame.image.LoadedModule> modules() {
            return now.modules();
        }

        @Override
        public io.mixflame.image.LoadedModule moduleAt(long address) {
            return now.moduleAt(address);
        }

        @Override
        public boolean isExecutable(long address) {
            return now.isExecutable(address);
        }

        @Override
        public io.mixflame.process.MemoryMapping stackRegionContaining(long sp) {
            return now.stackRegionContaining(sp);
        }

        @Override
        public io.mixflame.image.LoadedModule jvmLibrary() {
            return now.jvmLibrary();
        }

        @Override
        public void refresh() throws java.io.IOException {
            now.refresh();
        }
    }

    @Test
    void atTheFirstInstructionTheReturnAddressIsAtSp() {
        Registers r = at(FP_FUNCTION, SP);
        r.set(RBP, CALLER_FP);
        onStack(SP, CALLER_PC);

        assertThat(unwinder.canUnwindFrom(context)).isTrue();
        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.sp()).isEqualTo(SP + 8);
        assertThat(r.pc()).isEqualTo(CALLER_PC);
        assertThat(r.fp()).isEqualTo(CALLER_FP);
        assertThat(context.guessedFramePointer()).isFalse();
        assertThat(context.signalFrame()).isFalse();
    }

    @Test
    void afterThePushTheCallersFramePointerIsReadFromTheStack() {
        Registers r = at(FP_FUNCTION + 1, SP);
        r.set(RBP, 0x1234);
        onStack(SP, CALLER_FP);
        onStack(SP + 8, CALLER_PC);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.sp()).isEqualTo(SP + 16);
        assertThat(r.pc()).isEqualTo(CALLER_PC);
        assertThat(r.fp()).isEqualTo(CALLER_FP);
    }

    @Test
    void inTheBodyTheCfaIsRelativeToTheFramePointer() {
        long fp = SP + 0x40;
        Registers r = at(FP_FUNCTION + 0x10, SP);
        r.set(RBP, fp);
        onStack(fp, CALLER_FP);
        onStack(fp + 8, CALLER_PC);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.sp()).isEqualTo(fp + 16);
        assertThat(r.pc()).isEqualTo(CALLER_PC);
        assertThat(r.fp()).isEqualTo(CALLER_FP);
    }

    @Test
    void anUnknownFramePointerThatTheFrameKeepsStaysUnknown() {
        Registers r = at(FP_FUNCTION, SP);
        onStack(SP, CALLER_PC);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.isKnown(RBP)).isFalse();
        assertThat(r.pc()).isEqualTo(CALLER_PC);
    }

    @Test
    void aReturnAddressIsLookedUpAtTheCallBeforeIt() {
        // A call as the last instruction of a function: the return address is the first byte after it.
        at(FP_FUNCTION + 0x40, SP).set(RBP, SP + 0x40);

        assertThat(unwinder.canUnwindFrom(context)).isFalse();
        context.setCallSite(true);
        assertThat(unwinder.canUnwindFrom(context)).isTrue();
    }

    @Test
    void expressionsGiveTheCfaAndTheSavedRegisters() {
        Registers r = at(EXPRESSION_FUNCTION + 4, SP);
        onStack(SP + 32 - 16, CALLER_PC);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.sp()).isEqualTo(SP + 32);
        assertThat(r.pc()).isEqualTo(CALLER_PC);
        assertThat(r.fp()).isEqualTo(SP + 32 - 48);
    }

    @Test
    void anUndefinedReturnAddressEndsTheStack() {
        Registers r = at(ENTRY_FUNCTION + 2, SP);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.COMPLETED);
        assertThat(r.sp()).isEqualTo(SP);
    }

    @Test
    void aSignalTrampolineIsReported() {
        at(SIGNAL_FUNCTION, SP);
        onStack(SP, CALLER_PC);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(context.signalFrame()).isTrue();
    }

    @Test
    void aReturnAddressSlotOutsideTheCopyIsReadFromTheProcess() {
        long sp = STACK_HIGH;
        Registers r = at(FP_FUNCTION, sp);
        process.writeLong(sp, CALLER_PC);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.pc()).isEqualTo(CALLER_PC);
    }

    @Test
    void anUnreadableReturnAddressFailsTheStep() {
        at(FP_FUNCTION, STACK_HIGH + 0x1000);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.FAILED);
    }

    @Test
    void codeWithoutRulesIsNotClaimed() {
        at(0x8000, SP);
        assertThat(unwinder.canUnwindFrom(context)).isFalse();
        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.FAILED);

        context.registers().set(RA, 0x1000);
        assertThat(unwinder.canUnwindFrom(context)).isFalse();
        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.FAILED);
    }

    @Test
    void aMissingFramePointerIsFoundWhereTheReturnAddressFollowsACallOfTheFunction() {
        // The caller's code: "call FP_FUNCTION" (e8 rel32) ending at the return address.
        long returnAddress = BIAS + 0x5000;
        int rel = (int) (BIAS + FP_FUNCTION - returnAddress);
        process.write(returnAddress - 5, new LittleEndianWriter().u8(0xe8).u32(rel).toByteArray());
        long fp = SP + 0x30;
        Registers r = at(FP_FUNCTION + 0x10, SP);
        onStack(SP + 0x18, 0xdead); // the candidate SP + 0x10 implies this return address, which is not code
        onStack(fp, CALLER_FP);
        onStack(fp + 8, returnAddress);

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(context.guessedFramePointer()).isTrue();
        assertThat(r.sp()).isEqualTo(fp + 16);
        assertThat(r.pc()).isEqualTo(returnAddress);
        assertThat(r.fp()).isEqualTo(CALLER_FP);
    }

    @Test
    void aMissingFramePointerWithoutAConvincingCandidateFailsTheStep() {
        at(FP_FUNCTION + 0x10, SP);
        onStack(SP + 0x38, BIAS + 0x5000); // code, but no call before it

        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.FAILED);
    }
}
