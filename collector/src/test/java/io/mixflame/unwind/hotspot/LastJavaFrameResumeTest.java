package io.mixflame.unwind.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.hotspot.BlobKind;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.SyntheticModuleMap;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.testsupport.SyntheticStack;
import io.mixflame.unwind.FramePointerUnwinder;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.WalkedStack;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A walk that broke in native code goes on from the thread's last Java frame only where the stack copied with the
 * sample shows the call out of that frame: the JVM's record of the frame is read when the sample is walked, and by
 * then the thread may be in another call (in the {@code mixed} example: a sample taken while classes were loaded
 * and verified, walked once the thread was deflating, came out with the deflate call's frames under the loader's).
 */
class LastJavaFrameResumeTest {
    private static final int TID = 4242;
    /** Native code with frame pointers. */
    private static final long CODE = 0x40_0000;
    /** The JVM's code cache: one interpreter blob, as HotSpot has. */
    private static final long JIT = 0x7f30_0000_0000L;
    private static final long INTERPRETER = JIT + 0x1000;
    private static final long STACK_LOW = 0x7ffd_0000_0000L;
    private static final long STACK_HIGH = STACK_LOW + 0x1_0000;

    private static final long MAIN_RET = CODE + 0x110;
    private static final long LEAF_PC = CODE + 0x330;
    private static final long NATIVE_RET = CODE + 0x440;
    /** Where the interpreted frame recorded as the last Java frame was when it called native code. */
    private static final long ANCHOR_PC = INTERPRETER + 0x280;
    /** The return address of that call. */
    private static final long CALL_RETURN = INTERPRETER + 0x2a0;
    /** The interpreter's code too, but no return address of that call: where another interpreted call returns. */
    private static final long OTHER_RETURN = INTERPRETER + 0x5c0;

    private final FakeProcessMemory memory = new FakeProcessMemory();
    private final SyntheticStack stack = new SyntheticStack(memory, STACK_LOW, STACK_HIGH);
    private final ModuleMap modules = new SyntheticModuleMap()
            .anonymousCode(CODE, CODE + 0x1_0000)
            .anonymousCode(JIT, JIT + 0x1_0000)
            .readWrite(STACK_LOW, STACK_HIGH)
            .build();
    private final NativeStackWalker walker = new NativeStackWalker(List.of(new FramePointerUnwinder()), 64);
    private final StackMemory stackMemory = new StackMemory(memory);
    private final UnwindContext context = new UnwindContext(stackMemory, modules);
    private final WalkedStack walked = new WalkedStack();
    private final long javaSp;
    private final long javaFp;
    private final long leafSp;

    /**
     * The thread as it is when its sample is walked: its first frame (native) calls an interpreted frame, which
     * calls native code whose innermost frame keeps no frame pointer, so that a walk from there breaks at once.
     */
    LastJavaFrameResumeTest() {
        stack.push(0).enterWithFramePointer(16);
        stack.call(MAIN_RET).enterWithFramePointer(32);
        javaSp = stack.sp();
        javaFp = stack.fp();
        stack.call(CALL_RETURN).enterWithFramePointer(64);
        stack.call(NATIVE_RET).reserve(32);
        leafSp = stack.sp();
    }

    private static CodeBlobInfo blobAt(long pc) {
        if (pc >= INTERPRETER && pc < INTERPRETER + 0x1000) {
            return new CodeBlobInfo(INTERPRETER, INTERPRETER + 0x1000, BlobKind.INTERPRETER, "Interpreter",
                    INTERPRETER, INTERPRETER + 0x1000, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, INTERPRETER);
        }
        return null;
    }

    /** The copy taken with the sample: {@code length} bytes of the stack from the innermost frame's sp. */
    private byte[] copyOf(int length) {
        byte[] copy = new byte[length];
        assertThat(memory.read(leafSp, copy, 0, length)).isEqualTo(length);
        return copy;
    }

    /** Walks the sample with {@code copy}, then resumes it from the anchor the JVM records now. */
    private boolean walkAndResume(byte[] copy) {
        stackMemory.setCopy(leafSp, copy, copy.length);
        Registers r = context.registers();
        r.clear();
        r.set(X64Registers.RIP, LEAF_PC);
        r.set(X64Registers.RSP, leafSp);
        r.set(X64Registers.RBP, 0x5);
        walker.walk(context, walked);
        assertThat(walked.broken()).as("the sample's own walk breaks in native code").isTrue();
        LastJavaFrameResume.Anchors now = (tid, out) -> {
            out[0] = javaSp;
            out[1] = javaFp;
            out[2] = ANCHOR_PC;
            return tid == TID;
        };
        LastJavaFrameResume resume = new LastJavaFrameResume(pc -> pc >= JIT && pc < JIT + 0x1_0000,
                LastJavaFrameResumeTest::blobAt, now);
        return resume.resume(walker, context, walked, TID);
    }

    private List<Long> pcs() {
        List<Long> list = new ArrayList<>();
        for (int i = 0; i < walked.size(); i++) {
            list.add(walked.pc(i));
        }
        return list;
    }

    @Test
    void goesOnFromTheLastJavaFrameWhenTheSamplesCopyHoldsTheReturnAddressOfItsCall() {
        assertThat(walkAndResume(copyOf((int) (STACK_HIGH - leafSp)))).isTrue();

        assertThat(pcs()).containsExactly(LEAF_PC, 0L, ANCHOR_PC, MAIN_RET);
        assertThat(walked.kind(1)).isEqualTo(WalkedStack.MISSING);
        assertThat(walked.end()).isEqualTo(WalkedStack.End.COMPLETED);
    }

    @Test
    void anAnchorWhoseCallLiesBeyondTheSamplesCopyIsNotWalkedFrom() {
        // The copy ends just below the slot of the anchor's return address. Read through to the process, that slot
        // holds the return address of the call the thread is in now, which always agrees with an anchor read now.
        int copied = (int) (javaSp - 8 - leafSp);

        assertThat(walkAndResume(copyOf(copied))).isFalse();

        assertThat(pcs()).containsExactly(LEAF_PC, 0L);
        assertThat(walked.kind(1)).isEqualTo(WalkedStack.UNKNOWN);
        assertThat(walked.broken()).isTrue();
    }

    @Test
    void aReturnAddressIntoTheAnchorsBlobThatItsCallDidNotPushConfirmsNothing() {
        // At the sample, the slot held where some other interpreted call returns: the interpreter's code, as the
        // anchor's pc is, but the thread was not in the anchor's call.
        byte[] copy = copyOf((int) (STACK_HIGH - leafSp));
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putLong((int) (javaSp - 8 - leafSp), OTHER_RETURN);

        assertThat(walkAndResume(copy)).isFalse();

        assertThat(pcs()).containsExactly(LEAF_PC, 0L);
        assertThat(walked.kind(1)).isEqualTo(WalkedStack.UNKNOWN);
    }
}
