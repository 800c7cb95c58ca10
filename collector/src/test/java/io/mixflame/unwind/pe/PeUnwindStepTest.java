package io.mixflame.unwind.pe;

import static io.mixflame.unwind.pe.PeUnwindFixture.BASE;
import static io.mixflame.unwind.pe.PeUnwindFixture.STACK_HIGH;
import static io.mixflame.unwind.pe.PeUnwindFixture.regs;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.pe.UnwindCode;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.UnwindInfoBytes;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeUnwindStepTest {
    // Windows register numbers, as unwind codes use them.
    private static final int WIN_RBX = 3;
    private static final int WIN_RBP = 5;
    private static final int WIN_RSI = 6;
    private static final int WIN_R12 = 12;
    // DWARF numbers, as Registers uses them.
    private static final int RSI = 4;
    private static final int RDI = 5;
    private static final int R12 = 12;

    private static final long SP = 0x12_0000L;
    private static final long RET = BASE + 0x2345;

    /** push rbp; push rbx; sub rsp, 0x20 — at offsets 0, 1, 2; codes in array order, last operation first. */
    private static final byte[] PUSH_PUSH_ALLOC = new UnwindInfoBytes().prolog(6)
            .allocSmall(6, 0x20).push(2, WIN_RBX).push(1, WIN_RBP).toByteArray();

    private static PeUnwindFixture pushPushAlloc() {
        return new PeUnwindFixture().code(0x1000, 0x55, 0x53, 0x48, 0x83, 0xec, 0x20).load(0x1000, 0x1100,
                PUSH_PUSH_ALLOC);
    }

    @Test
    void pushOnlyPrologRestoresPushedRegisters() {
        byte[] info = new UnwindInfoBytes().prolog(2).push(2, WIN_RBX).push(1, WIN_RBP).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().code(0x1000, 0x55, 0x53).load(0x1000, 0x1100, info);
        f.stack(SP, 0xb0b, 0xbadd, RET);
        Registers r = regs(SP);

        PeUnwindResult result = f.unwind(0x1010, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.get(X64Registers.RBX)).isEqualTo(0xb0b);
        assertThat(r.get(X64Registers.RBP)).isEqualTo(0xbadd);
        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(SP + 24);
        assertThat(result.establisherFrame()).isEqualTo(SP);
    }

    @Test
    void smallAndLargeAllocationsAreUndone() {
        byte[] info = new UnwindInfoBytes().prolog(0x20).allocLarge32(0x20, 0x2_0000).allocLarge16(0x10, 0x1000)
                .allocSmall(4, 0x28).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        long sp = PeUnwindFixture.STACK_LOW + 0x100;
        f.stack(sp + 0x28 + 0x1000 + 0x2_0000, RET);
        Registers r = regs(sp);

        PeUnwindResult result = f.unwind(0x1050, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(sp + 0x28 + 0x1000 + 0x2_0000 + 8);
    }

    @Test
    void framePointerWithOffsetLocatesTheFrameWhateverRspIs() {
        // push rbp (1); sub rsp, 0x40 (5); lea rbp, [rsp + 0x20] (10); mov [rsp + 0x30], rbx (15)
        byte[] info = new UnwindInfoBytes().prolog(15).frame(WIN_RBP, 2)
                .saveNonvol(15, WIN_RBX, 0x30).setFpreg(10).allocSmall(5, 0x40).push(1, WIN_RBP).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        long entrySp = SP + 0x200; // rsp before the call pushed the return address was entrySp + 8
        long frameBase = entrySp - 8 - 0x40;
        f.stack(entrySp - 8, 0x01db9, RET);
        f.stack(frameBase + 0x30, 0xb0b);
        Registers r = regs(frameBase - 0x100); // the body moved rsp further (an alloca)
        r.set(X64Registers.RBP, frameBase + 0x20);

        PeUnwindResult result = f.unwind(0x1040, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(result.establisherFrame()).isEqualTo(frameBase);
        assertThat(r.get(X64Registers.RBX)).isEqualTo(0xb0b);
        assertThat(r.get(X64Registers.RBP)).isEqualTo(0x01db9);
        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(entrySp + 8);
    }

    @Test
    void savedNonVolatilesAreReadAtTheirOffsets() {
        // sub rsp, 0x38 (4); mov [rsp + 0x10], rsi (9); mov [rsp + 0x18], r12 (14, far form)
        byte[] info = new UnwindInfoBytes().prolog(14).saveNonvolFar(14, WIN_R12, 0x18).saveNonvol(9, WIN_RSI, 0x10)
                .allocSmall(4, 0x38).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        f.stack(SP + 0x10, 0x5151, 0x1212);
        f.stack(SP + 0x38, RET);
        Registers r = regs(SP);
        r.set(RDI, 0xd1);

        PeUnwindResult result = f.unwind(0x1020, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.get(RSI)).isEqualTo(0x5151); // Windows 6 is rsi, DWARF 4
        assertThat(r.get(R12)).isEqualTo(0x1212);
        assertThat(r.get(RDI)).isEqualTo(0xd1); // untouched
        assertThat(r.sp()).isEqualTo(SP + 0x40);
    }

    @Test
    void xmmSavesAreSkippedWithoutReading() {
        // The far save's slot lies outside the stack: reading it would fail the step.
        byte[] info = new UnwindInfoBytes().prolog(20).saveXmm128Far(20, 7, 0x10_0000).saveXmm128(12, 6, 0x10)
                .allocSmall(4, 0x58).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        f.stack(SP + 0x58, RET);
        Registers r = regs(SP);

        PeUnwindResult result = f.unwind(0x1030, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(result.skippedXmmSaves()).isEqualTo(2);
        assertThat(r.sp()).isEqualTo(SP + 0x60);
    }

    @Test
    void version2EpilogCodesChangeNoRegister() {
        // Two UWOP_EPILOG descriptions (two slots each) ahead of the prolog's codes, as version 2 lays them out.
        byte[] info = new UnwindInfoBytes().version(2).prolog(2).code(3, UnwindCode.EPILOG, 1).slot(0)
                .code(0x40, UnwindCode.EPILOG, 0).slot(0).push(2, WIN_RBX).push(1, WIN_RBP).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        f.stack(SP, 0xb0b, 0xbadd, RET);

        Registers r = unwoundAt(f, 0x1050);

        assertThat(r.get(X64Registers.RBX)).isEqualTo(0xb0b);
        assertThat(r.get(X64Registers.RBP)).isEqualTo(0xbadd);
        assertThat(r.sp()).isEqualTo(SP + 24);
    }

    @Test
    void machineFrameRestoresTheInterruptedContext() {
        byte[] info = new UnwindInfoBytes().machFrame(0, false).toByteArray();
        long interruptedSp = SP + 0x808;

        Registers r = unwindMachineFrame(info, SP, RET, 0x33, 0x246, interruptedSp, 0x2b);

        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(interruptedSp);
    }

    @Test
    void machineFrameWithErrorCodeIsOneSlotHigher() {
        // The allocation is undone first (it is later in the prolog), then the machine frame.
        byte[] info = new UnwindInfoBytes().allocSmall(0, 0x20).machFrame(0, true).toByteArray();
        long interruptedSp = SP + 0x1000;

        Registers r = unwindMachineFrame(info, SP + 0x20, 0xe4404, RET, 0x33, 0x246, interruptedSp, 0x2b);

        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(interruptedSp);
    }

    /** Unwinds a frame at rsp {@link #SP} and pc {@code pcRva}; must succeed. */
    private static Registers unwoundAt(PeUnwindFixture f, long pcRva) {
        Registers r = regs(SP);
        PeUnwindResult result = f.unwind(pcRva, r);
        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        return r;
    }

    /** Unwinds a frame at rsp {@link #SP} whose stack holds {@code frame} from {@code frameAt}; must succeed. */
    private static Registers unwindMachineFrame(byte[] info, long frameAt, long... frame) {
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        f.stack(frameAt, frame);
        Registers r = regs(SP);

        PeUnwindResult result = f.unwind(0x1004, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        return r;
    }

    @Test
    void chainedInfoIsAppliedAfterThePrimary() {
        PeImageBuilder b = new PeImageBuilder();
        long parentInfo = 0x2000; // .xdata follows the one-page .text; the parent is its first info
        // Parent [0x1000, 0x1040): push rbx (1); sub rsp, 0x20 (5). Fragment [0x1080, 0x10c0): push rsi (2).
        byte[] parent = new UnwindInfoBytes().prolog(5).allocSmall(5, 0x20).push(1, WIN_RBX).toByteArray();
        byte[] fragment = new UnwindInfoBytes().prolog(2).push(2, WIN_RSI).chainTo(0x1000, 0x1040, parentInfo)
                .toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(b, List.of(new PeImageBuilder.Function(0x1000, 0x1040, parent),
                new PeImageBuilder.Function(0x1080, 0x10c0, fragment)));
        f.stack(SP, 0x5151);
        f.stack(SP + 8 + 0x20, 0xb0b, RET);
        Registers r = regs(SP);

        PeUnwindResult result = f.unwind(0x1090, r);

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.get(RSI)).isEqualTo(0x5151);
        assertThat(r.get(X64Registers.RBX)).isEqualTo(0xb0b);
        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(SP + 8 + 0x20 + 16);
    }

    @Test
    void partialPrologUndoesOnlyWhatRan() {
        PeUnwindFixture f = pushPushAlloc();

        // At offset 2 both pushes ran, the sub had not.
        f.stack(SP, 0xb0b, 0xbadd, RET);
        Registers afterPushes = unwoundAt(f, 0x1002);
        assertThat(afterPushes.sp()).isEqualTo(SP + 24);
        assertThat(afterPushes.get(X64Registers.RBX)).isEqualTo(0xb0b);

        // At offset 1 only push rbp ran.
        f.stack(SP, 0xbadd, RET);
        Registers afterOnePush = unwoundAt(f, 0x1001);
        assertThat(afterOnePush.get(X64Registers.RBP)).isEqualTo(0xbadd);
        assertThat(afterOnePush.isKnown(X64Registers.RBX)).isFalse();
        assertThat(afterOnePush.sp()).isEqualTo(SP + 16);

        // At the first instruction nothing ran: a plain return.
        f.stack(SP, RET);
        Registers atEntry = unwoundAt(f, 0x1000);
        assertThat(atEntry.pc()).isEqualTo(RET);
        assertThat(atEntry.sp()).isEqualTo(SP + 8);
    }

    @Test
    void pcInAnEpilogRunsItForward() {
        // add rsp, 0x20; pop rbx; pop rbp; ret — at 0x1040 .. 0x1047
        PeUnwindFixture f = new PeUnwindFixture().code(0x1040, 0x48, 0x83, 0xc4, 0x20, 0x5b, 0x5d, 0xc3)
                .load(0x1000, 0x1100, PUSH_PUSH_ALLOC);

        f.stack(SP + 0x20, 0xb0b, 0xbadd, RET);
        Registers atAdd = unwoundAt(f, 0x1040);
        assertThat(atAdd.sp()).isEqualTo(SP + 0x38);
        assertThat(atAdd.get(X64Registers.RBX)).isEqualTo(0xb0b);
        assertThat(atAdd.pc()).isEqualTo(RET);

        // After the add the prolog codes would undo the allocation a second time; the epilog path must not.
        f.stack(SP, 0xb0b, 0xbadd, RET);
        Registers atPop = unwoundAt(f, 0x1044);
        assertThat(atPop.sp()).isEqualTo(SP + 24);
        assertThat(atPop.get(X64Registers.RBP)).isEqualTo(0xbadd);

        f.stack(SP, RET);
        Registers atRet = unwoundAt(f, 0x1046);
        assertThat(atRet.pc()).isEqualTo(RET);
        assertThat(atRet.sp()).isEqualTo(SP + 8);
    }

    @Test
    void epilogRestoringRspFromTheFramePointer() {
        // lea rsp, [rbp + 0x10]; pop rbp; ret
        byte[] info = new UnwindInfoBytes().prolog(12).frame(WIN_RBP, 1).setFpreg(12).allocSmall(5, 0x30)
                .push(1, WIN_RBP).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().code(0x1050, 0x48, 0x8d, 0x65, 0x10, 0x5d, 0xc3)
                .load(0x1000, 0x1100, info);
        long rbp = SP + 0x100;
        f.stack(rbp + 0x10, 0xbadd, RET);
        Registers r = regs(SP);
        r.set(X64Registers.RBP, rbp);

        assertThat(f.unwind(0x1050, r).status()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.get(X64Registers.RBP)).isEqualTo(0xbadd);
        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(rbp + 0x20);
    }

    @Test
    void tailCallJumpOutOfTheFunctionIsAnEpilog() {
        // add rsp, 0x20; pop rbx; pop rbp; jmp rel32 to 0x1200 (outside [0x1000, 0x1100))
        int rel = 0x1200 - (0x1046 + 5);
        PeUnwindFixture f = new PeUnwindFixture()
                .code(0x1040, 0x48, 0x83, 0xc4, 0x20, 0x5b, 0x5d, 0xe9, rel & 0xff, rel >> 8 & 0xff, 0, 0)
                .load(0x1000, 0x1100, PUSH_PUSH_ALLOC);
        f.stack(SP, 0xb0b, 0xbadd, RET);
        Registers r = regs(SP);

        assertThat(f.unwind(0x1044, r).status()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.sp()).isEqualTo(SP + 24);
    }

    @Test
    void jumpInsideTheFunctionIsNoEpilog() {
        // pop rbx; jmp rel8 back into the function: not an epilog, so the prolog codes apply.
        PeUnwindFixture f = new PeUnwindFixture().code(0x1040, 0x5b, 0xeb, 0xf0).load(0x1000, 0x1100,
                PUSH_PUSH_ALLOC);
        f.stack(SP + 0x20, 0xb0b, 0xbadd, RET);
        Registers r = regs(SP);

        assertThat(f.unwind(0x1040, r).status()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.sp()).isEqualTo(SP + 0x38);
    }

    @Test
    void leafFunctionIsALoneReturn() {
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, PUSH_PUSH_ALLOC);
        f.stack(SP, RET);
        Registers r = regs(SP);
        r.set(X64Registers.RBX, 0x77);

        PeUnwindResult result = f.unwind(0x1200, r); // no RUNTIME_FUNCTION covers it

        assertThat(result.status()).as(result.failure()).isEqualTo(UnwindStatus.UNWOUND);
        assertThat(r.pc()).isEqualTo(RET);
        assertThat(r.sp()).isEqualTo(SP + 8);
        assertThat(r.get(X64Registers.RBX)).isEqualTo(0x77);
    }

    @Test
    void zeroReturnAddressEndsTheStack() {
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, PUSH_PUSH_ALLOC);
        f.stack(SP, 0);

        assertThat(f.unwind(0x1200, regs(SP)).status()).isEqualTo(UnwindStatus.COMPLETED);
    }

    @Test
    void zeroReturnAddressInTheStacksLastSlotEndsTheStack() {
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, PUSH_PUSH_ALLOC);
        f.stack(STACK_HIGH - 8, 0);

        assertThat(f.unwind(0x1200, regs(STACK_HIGH - 8)).status()).isEqualTo(UnwindStatus.COMPLETED);
    }

    @Test
    void rspPastTheHighLimitFails() {
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, PUSH_PUSH_ALLOC);
        f.stack(STACK_HIGH - 8, RET);
        Registers r = regs(STACK_HIGH - 8);

        PeUnwindResult result = f.unwind(0x1200, r);

        assertThat(result.status()).isEqualTo(UnwindStatus.FAILED);
        assertThat(result.failure()).contains("outside the stack");
        assertThat(r.sp()).isEqualTo(STACK_HIGH - 8); // unchanged on failure
    }

    @Test
    void allocationPastTheHighLimitFailsWithoutReading() {
        byte[] info = new UnwindInfoBytes().allocLarge32(0, 0x100_0000).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);

        PeUnwindResult result = f.unwind(0x1010, regs(SP));

        assertThat(result.status()).isEqualTo(UnwindStatus.FAILED);
        assertThat(result.failure()).contains("return address").contains("outside the stack");
    }

    @Test
    void misalignedCallerRspFails() {
        byte[] info = new UnwindInfoBytes().machFrame(0, false).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        f.stack(SP, RET, 0x33, 0x246, SP + 0x803, 0x2b);

        PeUnwindResult result = f.unwind(0x1004, regs(SP));

        assertThat(result.status()).isEqualTo(UnwindStatus.FAILED);
        assertThat(result.failure()).contains("misaligned");
    }

    @Test
    void unreadableReturnAddressFails() {
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, PUSH_PUSH_ALLOC);
        f.memory.unmap(SP, 0x1000);

        PeUnwindResult result = f.unwind(0x1200, regs(SP));

        assertThat(result.status()).isEqualTo(UnwindStatus.FAILED);
        assertThat(result.failure()).contains("cannot read return address");
    }

    @Test
    void callerRspNotAboveTheFrameFails() {
        // A machine frame claiming the interrupted rsp is the frame's own: a walk would loop.
        byte[] info = new UnwindInfoBytes().machFrame(0, false).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);
        f.stack(SP, RET, 0x33, 0x246, SP, 0x2b);

        PeUnwindResult result = f.unwind(0x1004, regs(SP));

        assertThat(result.status()).isEqualTo(UnwindStatus.FAILED);
        assertThat(result.failure()).contains("not above");
    }

    @Test
    void unknownFrameRegisterFails() {
        byte[] info = new UnwindInfoBytes().prolog(4).frame(WIN_RBP, 0).setFpreg(4).push(1, WIN_RBP).toByteArray();
        PeUnwindFixture f = new PeUnwindFixture().load(0x1000, 0x1100, info);

        PeUnwindResult result = f.unwind(0x1040, regs(SP)); // rbp not known

        assertThat(result.status()).isEqualTo(UnwindStatus.FAILED);
        assertThat(result.failure()).contains("frame register");
    }
}
