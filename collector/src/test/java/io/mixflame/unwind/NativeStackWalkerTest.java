package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.SyntheticModuleMap;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.SyntheticStack;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Walks over an imaginary process: frames in call order, the hand-over between unwinders, and every check that
 * ends a walk with a marker instead of frames made of garbage.
 */
class NativeStackWalkerTest {
    /** Native code with frame pointers. */
    private static final long CODE = 0x40_0000;
    /** Generated code that {@link FixedFrameUnwinder} claims. */
    private static final long JIT = 0x60_0000;
    private static final int JIT_FRAME = 16;
    private static final long STACK_LOW = 0x7ffd_0000_0000L;
    private static final long STACK_HIGH = STACK_LOW + 0x10000;
    /** Readable, writable memory above the stack: not the stack. */
    private static final long OTHER = 0x7ffe_0000_0000L;

    private static final long MAIN_RET = CODE + 0x110;
    private static final long A_RET = CODE + 0x220;
    private static final long B_PC = CODE + 0x330;
    private static final long JIT1_RET = JIT + 0x40;
    private static final long JIT2_RET = JIT + 0x80;

    private final FakeProcessMemory memory = new FakeProcessMemory();
    private final SyntheticStack stack = new SyntheticStack(memory, STACK_LOW, STACK_HIGH);
    private final ModuleMap modules = new SyntheticModuleMap()
            .anonymousCode(CODE, CODE + 0x10000)
            .anonymousCode(JIT, JIT + 0x10000)
            .readWrite(STACK_LOW, STACK_HIGH)
            .readWrite(OTHER, OTHER + 0x1000)
            .build();
    private final FramePointerUnwinder framePointers = new FramePointerUnwinder();
    private final FixedFrameUnwinder jit = new FixedFrameUnwinder(JIT, JIT + 0x10000, JIT_FRAME);

    /** main calls a, a calls b, b is running; main's frame ends the chain with a null return address. */
    private long[] mainCallsACallsB() {
        stack.push(0).enterWithFramePointer(16);
        long mainFp = stack.fp();
        stack.call(MAIN_RET).enterWithFramePointer(32);
        long aFp = stack.fp();
        stack.call(A_RET).enterWithFramePointer(0);
        return new long[] {mainFp, aFp, stack.fp()};
    }

    private WalkedStack walk(List<Unwinder> chain, int maxDepth, long pc, long sp, long fp) {
        UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
        context.registers().set(X64Registers.RIP, pc);
        context.registers().set(X64Registers.RSP, sp);
        context.registers().set(X64Registers.RBP, fp);
        WalkedStack out = new WalkedStack();
        new NativeStackWalker(chain, maxDepth).walk(context, out);
        return out;
    }

    private WalkedStack walkFromB(List<Unwinder> chain, int maxDepth) {
        return walk(chain, maxDepth, B_PC, stack.sp(), stack.fp());
    }

    private WalkedStack walkFromB() {
        return walkFromB(List.of(jit, framePointers), 64);
    }

    private static List<Long> pcs(WalkedStack s) {
        List<Long> list = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            list.add(s.pc(i));
        }
        return list;
    }

    private static List<Byte> kinds(WalkedStack s) {
        List<Byte> list = new ArrayList<>();
        for (int i = 0; i < s.size(); i++) {
            list.add(s.kind(i));
        }
        return list;
    }

    @Test
    void aFramePointerChainIsWalkedInnermostFirstToTheThreadsFirstFrame() {
        long[] fps = mainCallsACallsB();

        WalkedStack s = walkFromB();

        assertThat(s.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(pcs(s)).containsExactly(B_PC, A_RET, MAIN_RET);
        assertThat(s.sp(1)).isEqualTo(fps[2] + 16);
        assertThat(s.sp(2)).isEqualTo(fps[1] + 16);
        assertThat(s.fp(1)).isEqualTo(fps[1]);
        assertThat(s.isCallSite(0)).isFalse();
        assertThat(s.isCallSite(1)).isTrue();
        assertThat(s.lookupBeforePc(2)).isTrue();
    }

    @Test
    void unwindersHandFramesToEachOtherInCallOrder() {
        // main (native) calls jit1 calls jit2 (generated code, no frame pointer) calls n (native), which runs.
        stack.push(0).enterWithFramePointer(16);
        stack.call(MAIN_RET).reserve(JIT_FRAME);
        stack.call(JIT1_RET).reserve(JIT_FRAME);
        stack.call(JIT2_RET).enterWithFramePointer(8);

        WalkedStack s = walk(List.of(jit, framePointers), 64, B_PC, stack.sp(), stack.fp());

        assertThat(s.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(pcs(s)).containsExactly(B_PC, JIT2_RET, JIT1_RET, MAIN_RET);
        assertThat(kinds(s)).containsExactly(WalkedStack.CODE, WalkedStack.JVM_STUB, WalkedStack.JVM_STUB,
                WalkedStack.CODE);
        for (int i = 1; i < s.size(); i++) {
            assertThat(s.sp(i)).isGreaterThan(s.sp(i - 1));
        }
    }

    @Test
    void aCallersSpBelowTheCalleesEndsTheWalk() {
        long[] fps = mainCallsACallsB();
        long below = stack.sp() - 0x100;
        memory.writeLong(fps[2], below);
        memory.writeLong(below + 8, MAIN_RET);

        WalkedStack s = walkFromB();

        assertThat(pcs(s)).containsExactly(B_PC, A_RET, 0L);
        assertThat(s.kind(2)).isEqualTo(WalkedStack.UNKNOWN);
        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_STACK);
    }

    @Test
    void aFramePointerChainThatLoopsEndsTheWalk() {
        long[] fps = mainCallsACallsB();
        memory.writeLong(fps[1], fps[1]);

        WalkedStack s = walkFromB();

        assertThat(pcs(s)).containsExactly(B_PC, A_RET, MAIN_RET, 0L);
        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_STACK);
    }

    @Test
    void aCallersSpOutsideTheStackEndsTheWalk() {
        long[] fps = mainCallsACallsB();
        memory.writeLong(fps[2], OTHER + 0x100);
        memory.writeLong(OTHER + 0x108, MAIN_RET);

        WalkedStack s = walkFromB();

        assertThat(pcs(s)).containsExactly(B_PC, A_RET, 0L);
        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_STACK);
    }

    @Test
    void aMisalignedCallersSpEndsTheWalk() {
        // Code whose frames are 12 bytes: from an aligned sp, its return address and its caller's sp are misaligned.
        stack.push(0).enterWithFramePointer(16).reserve(32);
        memory.writeLong(stack.sp() + 12, MAIN_RET);
        FixedFrameUnwinder oddFrames = new FixedFrameUnwinder(JIT, JIT + 0x10000, 12);

        WalkedStack s = walk(List.of(oddFrames, framePointers), 64, JIT + 4, stack.sp(), stack.fp());

        assertThat(pcs(s)).containsExactly(JIT + 4, 0L);
        assertThat(s.kind(1)).isEqualTo(WalkedStack.UNKNOWN);
        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_STACK);
    }

    @Test
    void aReturnAddressOutsideExecutableMemoryEndsTheWalk() {
        long[] fps = mainCallsACallsB();
        memory.writeLong(fps[2] + 8, STACK_LOW + 0x40);

        WalkedStack s = walkFromB();

        assertThat(pcs(s)).containsExactly(B_PC, 0L);
        assertThat(s.kind(1)).isEqualTo(WalkedStack.UNKNOWN);
        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_PC);
    }

    @Test
    void theDepthLimitTruncatesTheWalk() {
        stack.push(0).enterWithFramePointer(0);
        for (int i = 0; i < 10; i++) {
            stack.call(CODE + 0x1000 + i).enterWithFramePointer(16);
        }

        WalkedStack s = walk(List.of(framePointers), 4, B_PC, stack.sp(), stack.fp());

        assertThat(s.size()).isEqualTo(5);
        assertThat(pcs(s)).containsExactly(B_PC, CODE + 0x1009, CODE + 0x1008, CODE + 0x1007, 0L);
        assertThat(s.kind(4)).isEqualTo(WalkedStack.TRUNCATED);
        assertThat(s.isCode(4)).isFalse();
        assertThat(s.end()).isEqualTo(WalkedStack.End.DEPTH_LIMIT);
    }

    @Test
    void codeNoUnwinderKnowsEndsTheWalk() {
        mainCallsACallsB();

        WalkedStack s = walkFromB(List.of(jit), 64);

        assertThat(pcs(s)).containsExactly(B_PC, 0L);
        assertThat(s.kind(1)).isEqualTo(WalkedStack.UNKNOWN);
        assertThat(s.end()).isEqualTo(WalkedStack.End.NO_UNWINDER);
    }

    @Test
    void aFailedStepEndsTheWalk() {
        mainCallsACallsB();

        WalkedStack s = walk(List.of(framePointers), 64, B_PC, stack.sp(), 0);

        assertThat(pcs(s)).containsExactly(B_PC, 0L);
        assertThat(s.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);
    }

    @Test
    void anSpOutsideEveryWritableMappingGivesOneFrameAndTheMarker() {
        WalkedStack s = walk(List.of(framePointers), 64, B_PC, CODE + 0x100, 0);

        assertThat(pcs(s)).containsExactly(B_PC, 0L);
        assertThat(s.kind(1)).isEqualTo(WalkedStack.UNKNOWN);
        assertThat(s.end()).isEqualTo(WalkedStack.End.BAD_STACK);
    }

    @Test
    void aWalkedStackIsReusedFromWalkToWalk() {
        mainCallsACallsB();
        UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
        WalkedStack out = new WalkedStack();
        NativeStackWalker walker = new NativeStackWalker(List.of(framePointers), 64);
        context.registers().set(X64Registers.RIP, B_PC);
        context.registers().set(X64Registers.RSP, stack.sp());
        context.registers().set(X64Registers.RBP, 0);
        walker.walk(context, out);
        assertThat(out.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);

        context.registers().set(X64Registers.RIP, B_PC);
        context.registers().set(X64Registers.RSP, stack.sp());
        context.registers().set(X64Registers.RBP, stack.fp());
        walker.walk(context, out);

        assertThat(pcs(out)).containsExactly(B_PC, A_RET, MAIN_RET);
        assertThat(out.end()).isEqualTo(WalkedStack.End.COMPLETED);
    }

    /** A walk from b that breaks at once (rbp lost), then goes on from where a's frame is recorded. */
    private WalkedStack brokenThenResumed(long[] fps, long resumeSp, long resumePc) {
        UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
        context.registers().set(X64Registers.RIP, B_PC);
        context.registers().set(X64Registers.RSP, stack.sp());
        context.registers().set(X64Registers.RBP, 0);
        WalkedStack out = new WalkedStack();
        NativeStackWalker walker = new NativeStackWalker(List.of(framePointers), 64);
        walker.walk(context, out);
        assertThat(out.broken()).isTrue();
        walker.resumeAt(context, out, resumeSp, fps[1], resumePc);
        return out;
    }

    @Test
    void aBrokenWalkGoesOnFromAFrameFurtherOutAfterOneMissingMarker() {
        long[] fps = mainCallsACallsB();
        // a's frame as a frame anchor would record it: its sp once it called b, its fp, the pc it called from.
        long aSp = fps[2] + 16;

        WalkedStack s = brokenThenResumed(fps, aSp, A_RET);

        assertThat(pcs(s)).containsExactly(B_PC, 0L, A_RET, MAIN_RET);
        assertThat(kinds(s)).containsExactly(WalkedStack.CODE, WalkedStack.MISSING, WalkedStack.CODE, WalkedStack.CODE);
        assertThat(s.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(s.isCallSite(2)).as("the resumed frame's pc is a return address").isTrue();
        assertThat(s.isCode(1)).isFalse();
    }

    @Test
    void aFrameNotFurtherOutThanTheWalkGotIsNotResumedFrom() {
        long[] fps = mainCallsACallsB();

        WalkedStack s = brokenThenResumed(fps, stack.sp(), A_RET);

        assertThat(kinds(s)).containsExactly(WalkedStack.CODE, WalkedStack.UNKNOWN);
        assertThat(s.end()).isEqualTo(WalkedStack.End.UNWIND_FAILED);
    }

    @Test
    void aFrameOutsideTheStackOrWithAPcOutsideCodeIsNotResumedFrom() {
        long[] fps = mainCallsACallsB();

        assertThat(kinds(brokenThenResumed(fps, OTHER + 0x100, A_RET)))
                .containsExactly(WalkedStack.CODE, WalkedStack.UNKNOWN);
        assertThat(kinds(brokenThenResumed(fps, fps[2] + 16, OTHER + 8)))
                .containsExactly(WalkedStack.CODE, WalkedStack.UNKNOWN);
    }

    @Test
    void aWalkThatEndsOnAZeroReturnAddressSaysSo() {
        mainCallsACallsB();
        WalkedStack s = walkFromB();
        assertThat(s.end()).isEqualTo(WalkedStack.End.COMPLETED);
        assertThat(s.endedAtZeroReturn()).as("main's return address is 0").isTrue();
        s.endedEarly();
        assertThat(s.endedAtZeroReturn()).as("once counted as broken").isFalse();
    }

    @Test
    void aWalkThatCompletedIsNotResumed() {
        long[] fps = mainCallsACallsB();
        WalkedStack s = walkFromB();
        UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
        assertThat(new NativeStackWalker(List.of(framePointers), 64).resumeAt(context, s, fps[2] + 16, fps[1], A_RET))
                .isFalse();
        assertThat(pcs(s)).containsExactly(B_PC, A_RET, MAIN_RET);
    }
}
