package io.mixflame.unwind.hotspot.x64;

import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.CALLER;
import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.CALLER_FP;
import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.CODE;
import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.STACK_HIGH;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Unwinding out of stubs without a frame size, by the rule that holds at each pc of their code. */
class StubFrameStepTest {
    /** push rbp; mov rbp,rsp; push rbx; sub rsp,0x20; add rax,rcx; add rsp,0x20; pop rbx; leave; ret. */
    private static final long FRAMED = CODE + 0x100;
    private static final int[] FRAMED_CODE = {0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x20, 0x48, 0x01, 0xc8,
        0x48, 0x83, 0xc4, 0x20, 0x5b, 0xc9, 0xc3};
    private static final int FRAMED_BODY = 9;
    private static final int FRAMED_LEAVE = 17;
    private static final int FRAMED_RET = 18;
    /** push rbp; mov rbp,rsp; add rax,rcx; vzeroupper; pop rbp; ret. */
    private static final long POPPING = CODE + 0x200;
    private static final int[] POPPING_CODE = {0x55, 0x48, 0x89, 0xe5, 0x48, 0x01, 0xc8, 0xc5, 0xf8, 0x77, 0x5d, 0xc3};
    private static final int POPPING_VZEROUPPER = 7;
    private static final int POPPING_POP = 10;
    /** mov eax,[rsi+8]; mov rax,[rax+16]; jmp [rax+8]: a vtable stub's shape. */
    private static final long FRAMELESS = CODE + 0x300;
    private static final int[] FRAMELESS_CODE = {0x8b, 0x46, 0x08, 0x48, 0x8b, 0x40, 0x10, 0xff, 0x60, 0x08};

    private final BlobFrameFixture f = new BlobFrameFixture().code(FRAMED, FRAMED_CODE).code(POPPING, POPPING_CODE)
            .code(FRAMELESS, FRAMELESS_CODE);

    private String step(long entry, long pc, long rbp, boolean callSite) throws Exception {
        f.at(pc, rbp, callSite);
        f.markSp();
        return f.result(f.step.stub(f.context, entry));
    }

    private static String caller(int spDelta, long rbp) {
        return String.format("pc=%x sp=+%d rbp=%x", CALLER, spDelta, rbp);
    }

    /** Builds the framed stub's whole frame; returns its frame pointer. */
    private long framedStubFrame() {
        f.stack.call(CALLER).push(CALLER_FP);
        long fp = f.stack.sp();
        f.stack.push(0x4242).reserve(0x20);
        return fp;
    }

    @Test
    void atTheEntryTheReturnAddressIsAtSp() throws Exception {
        f.stack.call(CALLER);

        assertThat(step(FRAMED, FRAMED, CALLER_FP, false)).isEqualTo(caller(8, CALLER_FP));
    }

    @Test
    void afterPushRbpTheReturnAddressIsAboveTheSavedRbp() throws Exception {
        f.stack.call(CALLER).push(CALLER_FP);

        assertThat(step(FRAMED, FRAMED + 1, 0x5151, false)).isEqualTo(caller(16, CALLER_FP));
    }

    @Test
    void onceTheFrameIsBuiltRbpLeadsToTheCaller() throws Exception {
        long fp = framedStubFrame();

        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, fp, false)).isEqualTo(caller(16 + 8 + 0x20, CALLER_FP));
    }

    @Test
    void atLeaveTheFrameIsStillWhole() throws Exception {
        f.stack.call(CALLER).push(CALLER_FP);
        long fp = f.stack.sp();

        assertThat(step(FRAMED, FRAMED + FRAMED_LEAVE, fp, false)).isEqualTo(caller(16, CALLER_FP));
    }

    @Test
    void atRetOnlyTheReturnAddressIsLeft() throws Exception {
        f.stack.call(CALLER);

        assertThat(step(FRAMED, FRAMED + FRAMED_RET, CALLER_FP, false)).isEqualTo(caller(8, CALLER_FP));
    }

    @Test
    void atPopRbpTheSavedRbpIsAtSp() throws Exception {
        f.stack.call(CALLER).push(CALLER_FP);
        long fp = f.stack.sp();

        assertThat(step(POPPING, POPPING + POPPING_POP, fp, false)).isEqualTo(caller(16, CALLER_FP));
        f.context.registers().clear();
        assertThat(step(POPPING, POPPING + POPPING_VZEROUPPER, fp, false)).isEqualTo(caller(16, CALLER_FP));
    }

    @Test
    void anRbpOutsideTheStackIsNotTaken() throws Exception {
        framedStubFrame();

        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, 0x1000, false)).isEqualTo("FAILED");
        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, STACK_HIGH + 0x100, false)).isEqualTo("FAILED");
    }

    @Test
    void anRbpBelowSpIsNotTaken() throws Exception {
        long fp = framedStubFrame();
        // A slot below sp that looks like a frame: saved rbp, then a code address.
        long below = f.stack.sp() - 0x20;
        f.memory.writeLong(below, CALLER_FP).writeLong(below + 8, CALLER);

        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, below, false)).isEqualTo("FAILED");
        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, fp, false)).isEqualTo(caller(16 + 8 + 0x20, CALLER_FP));
    }

    @Test
    void anRbpWhoseReturnAddressIsNoCodeIsNotTaken() throws Exception {
        f.stack.call(0x1234_5678L).push(CALLER_FP);
        long fp = f.stack.sp();

        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, fp, false)).isEqualTo("FAILED");
    }

    @Test
    void aStubThatDoesNotPushRbpReturnsThroughSpAnywhere() throws Exception {
        f.stack.call(CALLER);

        for (int offset : new int[] {0, 3, 7}) {
            assertThat(step(FRAMELESS, FRAMELESS + offset, 0x5151, false)).as("offset %d", offset)
                    .isEqualTo(caller(8, 0x5151));
            f.at(FRAMELESS, 0, false);
        }
    }

    @Test
    void aFramelessStubWhoseSpHoldsNoReturnAddressFails() throws Exception {
        f.stack.call(CALLER).push(0x9999);

        assertThat(step(FRAMELESS, FRAMELESS + 3, CALLER_FP, false)).isEqualTo("FAILED");
    }

    @Test
    void aCallSiteIsUnwoundThroughRbpOnlyInAStubThatKeepsIt() throws Exception {
        long fp = framedStubFrame();

        assertThat(step(FRAMED, FRAMED + FRAMED_BODY, fp, true)).isEqualTo(caller(16 + 8 + 0x20, CALLER_FP));
        assertThat(step(FRAMELESS, FRAMELESS + 3, fp, true)).isEqualTo("FAILED");
    }

    @Test
    void aStubWhoseEntryIsNotKnownIsNotUnwound() throws Exception {
        f.stack.call(CALLER);

        assertThat(step(0, FRAMED + FRAMED_RET, CALLER_FP, false)).isEqualTo("FAILED");
    }
}
