package io.mixflame.unwind.hotspot.x64;

import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.CALLER;
import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.CALLER_FP;
import static io.mixflame.unwind.hotspot.x64.BlobFrameFixture.CODE;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.hotspot.CodeBlobInfo;
import org.junit.jupiter.api.Test;

/**
 * Unwinding out of compiled methods of a 48-byte frame (return address, saved rbp, 32 bytes) at every stage of
 * their prologue and epilogue, in both shapes HotSpot builds frames in.
 */
class CompiledFrameStepTest {
    private static final int FRAME = 48;
    private static final long BANGING = CODE + 0x400;
    private static final long BANGING_VEP = BANGING + 0x20;
    /**
     * From the verified entry: mov [rsp-0x14000],eax; push rbp; sub rsp,0x20; cmp dword [r15+0x20],1; jne; (frame
     * complete) mov rax,[rsi]; add rax,rcx; vzeroupper; add rsp,0x20; pop rbp; cmp rsp,[r15+0x3e8]; ja; ret.
     */
    private static final int[] BANGING_CODE = {0x89, 0x84, 0x24, 0x00, 0xc0, 0xfe, 0xff, 0x55, 0x48, 0x83, 0xec, 0x20,
        0x41, 0x81, 0x7f, 0x20, 0x01, 0x00, 0x00, 0x00, 0x0f, 0x85, 0x10, 0x01, 0x00, 0x00,
        0x48, 0x8b, 0x06, 0x48, 0x01, 0xc8,
        0xc5, 0xf8, 0x77, 0x48, 0x83, 0xc4, 0x20, 0x5d, 0x49, 0x3b, 0xa7, 0xe8, 0x03, 0x00, 0x00,
        0x0f, 0x87, 0x00, 0x01, 0x00, 0x00, 0xc3};
    private static final int PUSH = 7;
    private static final int SUB = 8;
    private static final int BARRIER = 12;
    private static final int BARRIER_BRANCH = 20;
    private static final int COMPLETE = 26;
    private static final int BODY = 29;
    private static final int VZEROUPPER = 32;
    private static final int ADD = 35;
    private static final int POP = 39;
    private static final int POLL = 40;
    private static final int JA = 47;
    private static final int RET = 53;
    private static final CodeBlobInfo BANGING_BLOB = BlobFrameFixture.nmethod(BANGING, BANGING_VEP,
            BANGING_VEP + COMPLETE, FRAME);

    private static final long ALLOCATING = CODE + 0x800;
    /** sub rsp,0x28; mov [rsp+0x20],rbp; ud2; (frame complete) ret: a leaf method's frame, no bang. */
    private static final int[] ALLOCATING_CODE = {0x48, 0x81, 0xec, 0x28, 0x00, 0x00, 0x00,
        0x48, 0x89, 0x6c, 0x24, 0x20, 0x0f, 0x0b, 0xc3};
    private static final int STORE = 7;
    private static final int UNKNOWN = 12;
    private static final CodeBlobInfo ALLOCATING_BLOB = BlobFrameFixture.nmethod(ALLOCATING, ALLOCATING,
            ALLOCATING + 14, FRAME);

    private final BlobFrameFixture f = new BlobFrameFixture().code(BANGING, 0x8b, 0x56, 0x08)
            .code(BANGING_VEP, BANGING_CODE).code(ALLOCATING, ALLOCATING_CODE);

    private String step(CodeBlobInfo blob, long pc, long rbp, boolean callSite) throws Exception {
        f.at(pc, rbp, callSite);
        f.markSp();
        return f.result(f.step.sized(f.context, blob));
    }

    private String innermost(int offset) throws Exception {
        return step(BANGING_BLOB, BANGING_VEP + offset, 0x5151, false);
    }

    private static String caller(int spDelta, long rbp) {
        return String.format("pc=%x sp=+%d rbp=%x", CALLER, spDelta, rbp);
    }

    private void wholeFrame() {
        f.stack.call(CALLER).push(CALLER_FP).reserve(FRAME - 16);
    }

    @Test
    void beforeTheVerifiedEntryNothingIsPushed() throws Exception {
        f.stack.call(CALLER);

        assertThat(step(BANGING_BLOB, BANGING + 1, 0x5151, false)).isEqualTo(caller(8, 0x5151));
    }

    @Test
    void atTheStackBangAndAtPushRbpNothingIsPushed() throws Exception {
        f.stack.call(CALLER);

        assertThat(innermost(0)).isEqualTo(caller(8, 0x5151));
        assertThat(innermost(PUSH)).isEqualTo(caller(8, 0x5151));
    }

    @Test
    void afterPushRbpRbpAndTheReturnAddressAreAtSp() throws Exception {
        f.stack.call(CALLER).push(CALLER_FP);

        assertThat(innermost(SUB)).isEqualTo(caller(16, CALLER_FP));
    }

    @Test
    void fromTheEntryBarrierToTheEpilogueTheFrameSizeHolds() throws Exception {
        wholeFrame();

        for (int offset : new int[] {BARRIER, BARRIER_BRANCH, COMPLETE, BODY, VZEROUPPER, ADD}) {
            assertThat(innermost(offset)).as("offset %d", offset).isEqualTo(caller(FRAME, CALLER_FP));
        }
    }

    @Test
    void afterAddRspTheSavedRbpIsAtSp() throws Exception {
        f.stack.call(CALLER).push(CALLER_FP);

        assertThat(innermost(POP)).isEqualTo(caller(16, CALLER_FP));
    }

    @Test
    void afterPopRbpAtThePollAndAtRetOnlyTheReturnAddressIsLeft() throws Exception {
        f.stack.call(CALLER);

        for (int offset : new int[] {POLL, JA, RET}) {
            assertThat(innermost(offset)).as("offset %d", offset).isEqualTo(caller(8, 0x5151));
        }
    }

    @Test
    void aCallSiteIsUnwoundByFrameSizeWhateverTheCodeAfterIt() throws Exception {
        wholeFrame();

        assertThat(step(BANGING_BLOB, BANGING_VEP + POP, 0x5151, true)).isEqualTo(caller(FRAME, CALLER_FP));
    }

    @Test
    void aFrameAllocatedBeforeRbpIsSavedHasItsReturnAddressAboveTheAllocation() throws Exception {
        f.stack.call(CALLER);
        assertThat(step(ALLOCATING_BLOB, ALLOCATING, 0x5151, false)).isEqualTo(caller(8, 0x5151));

        f.stack.reserve(0x28);
        f.context.registers().clear();
        assertThat(step(ALLOCATING_BLOB, ALLOCATING + STORE, 0x5151, false)).isEqualTo(caller(0x30, 0x5151));
    }

    @Test
    void anInstructionNoPrologueHoldsFailsTheStep() throws Exception {
        f.stack.call(CALLER).reserve(0x28);

        assertThat(step(ALLOCATING_BLOB, ALLOCATING + UNKNOWN, 0x5151, false)).isEqualTo("FAILED");
    }

    @Test
    void aReturnAddressThatIsNoCodeFailsTheStep() throws Exception {
        f.stack.call(0x77);

        assertThat(innermost(RET)).isEqualTo("FAILED");
    }
}
