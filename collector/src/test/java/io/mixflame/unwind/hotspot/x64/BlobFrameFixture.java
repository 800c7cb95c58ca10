package io.mixflame.unwind.hotspot.x64;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.hotspot.BlobKind;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.image.SyntheticModuleMap;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.SyntheticStack;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;

/**
 * A thread caught in generated code, in fake memory: code bytes at {@link #CODE}, a stack whose outer frame was
 * called from {@link #CALLER} with rbp {@link #CALLER_FP}, and an unwind context over both.
 */
final class BlobFrameFixture {
    static final long CODE = 0x7f20_0000_1000L;
    static final long CODE_END = 0x7f20_0010_0000L;
    /** The caller's return address: executable, since it lies in the code mapping. */
    static final long CALLER = 0x7f20_0008_0123L;
    static final long STACK_LOW = 0x7ffd_0000_0000L;
    static final long STACK_HIGH = 0x7ffd_0001_0000L;
    /** The caller's frame pointer: a slot up the stack. */
    static final long CALLER_FP = STACK_HIGH - 0x40;

    final FakeProcessMemory memory = new FakeProcessMemory();
    final SyntheticStack stack;
    final UnwindContext context;
    final BlobFrameStep step = new BlobFrameStep(() -> 0L);

    BlobFrameFixture() {
        memory.map(CODE, CODE_END - CODE);
        // The caller's own frame, above which the walked frames are built.
        stack = new SyntheticStack(memory, STACK_LOW, STACK_HIGH).reserve(0x80);
        context = new UnwindContext(new StackMemory(memory),
                new SyntheticModuleMap().readWrite(STACK_LOW, STACK_HIGH).anonymousCode(CODE, CODE_END).build());
        context.setBounds(new StackBounds(STACK_LOW, STACK_HIGH));
    }

    /** Writes code at {@code address}. */
    BlobFrameFixture code(long address, int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        memory.write(address, b);
        return this;
    }

    /** Sets the innermost frame's registers (or a call site's, with {@code callSite}). */
    void at(long pc, long rbp, boolean callSite) {
        Registers r = context.registers();
        r.clear();
        r.set(X64Registers.RIP, pc);
        r.set(X64Registers.RSP, stack.sp());
        r.set(X64Registers.RBP, rbp);
        context.setCallSite(callSite);
    }

    /** A stub blob without frame size (as StubRoutines' buffers are) around {@code codeBegin}. */
    static CodeBlobInfo stubBlob(long codeBegin, String name) {
        return new CodeBlobInfo(codeBegin - 0x80, codeBegin + 0x1000, BlobKind.STUB, name, codeBegin,
                codeBegin + 0x1000, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, codeBegin);
    }

    /** An nmethod of {@code frameBytes} whose verified entry and frame completion are at the given addresses. */
    static CodeBlobInfo nmethod(long codeBegin, long verifiedEntry, long frameComplete, int frameBytes) {
        return new CodeBlobInfo(codeBegin - 0x80, codeBegin + 0x1000, BlobKind.NMETHOD, "nmethod", codeBegin,
                codeBegin + 0x1000, frameBytes / 8, (int) (frameComplete - codeBegin), 0x8000_0000L, 4, 0, 0, 16,
                0, 0, 0, 0, verifiedEntry);
    }

    /** The step's outcome and, when unwound, the caller's registers, as one line to compare. */
    String result(UnwindStatus status) {
        if (status != UnwindStatus.UNWOUND) {
            return status.name();
        }
        Registers r = context.registers();
        return String.format("pc=%x sp=+%d rbp=%x", r.pc(), r.sp() - spBefore, r.fp());
    }

    private long spBefore;

    /** Remembers sp before the step, for {@link #result}. */
    BlobFrameFixture markSp() {
        spBefore = context.registers().sp();
        return this;
    }
}
