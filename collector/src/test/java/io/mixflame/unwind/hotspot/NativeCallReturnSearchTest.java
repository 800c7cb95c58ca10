package io.mixflame.unwind.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.hotspot.BlobKind;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.testsupport.FakeProcessMemory;
import io.mixflame.unwind.StackBounds;
import io.mixflame.unwind.StackMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The search, in a sample's stack, for where a call out of Java into native code returns. */
class NativeCallReturnSearchTest {
    private static final long CODE = 0x7f30_0000_0000L;
    private static final long WRAPPER = CODE + 0x1000;
    private static final long NMETHOD = CODE + 0x2000;
    private static final long STACK_LOW = 0x7ffd_0000_0000L;
    private static final long STACK_HIGH = STACK_LOW + 0x1_0000;
    /** Where the walk broke: the copy taken with the sample starts here. */
    private static final long BREAK_SP = STACK_HIGH - 0x800;
    /** Right after the wrapper's {@code call rel32} into the native function. */
    private static final long AFTER_DIRECT_CALL = WRAPPER + 0x45;
    /** Right after the wrapper's {@code call r10}. */
    private static final long AFTER_REGISTER_CALL = WRAPPER + 0x83;
    /** In the wrapper, but after no call. */
    private static final long NOT_AFTER_CALL = WRAPPER + 0x60;
    private static final long IN_NMETHOD_AFTER_CALL = NMETHOD + 0x45;

    private final FakeProcessMemory memory = new FakeProcessMemory();
    private final byte[] copy = new byte[0x400];
    private final StackMemory stack = new StackMemory(memory);
    private final NativeCallReturnSearch search = new NativeCallReturnSearch(
            pc -> pc >= CODE && pc < CODE + 0x1_0000, NativeCallReturnSearchTest::blobAt);

    NativeCallReturnSearchTest() {
        memory.map(CODE, 0x1_0000);
        memory.write(AFTER_DIRECT_CALL - 5, new byte[] {(byte) 0xe8, 0x10, 0x20, 0x30, 0x00});
        memory.write(AFTER_REGISTER_CALL - 3, new byte[] {0x41, (byte) 0xff, (byte) 0xd2});
        memory.write(NOT_AFTER_CALL - 5, new byte[] {0x48, (byte) 0x89, (byte) 0xe5, (byte) 0x90, (byte) 0x90});
        memory.write(IN_NMETHOD_AFTER_CALL - 5, new byte[] {(byte) 0xe8, 0x10, 0x20, 0x30, 0x00});
    }

    private static CodeBlobInfo blobAt(long pc) {
        if (pc >= WRAPPER && pc < WRAPPER + 0x100) {
            return blob(WRAPPER, BlobKind.NATIVE_WRAPPER);
        }
        if (pc >= NMETHOD && pc < NMETHOD + 0x100) {
            return blob(NMETHOD, BlobKind.NMETHOD);
        }
        return null;
    }

    private static CodeBlobInfo blob(long start, BlobKind kind) {
        return new CodeBlobInfo(start - 0x40, start + 0x100, kind, "blob", start, start + 0x100, 4, 0x10, 0, 0, 0, 0,
                -1, 0, 0, 0, 0, start);
    }

    /** Puts {@code value} at {@code slot} of the sample's copy. */
    private void word(long slot, long value) {
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putLong((int) (slot - BREAK_SP), value);
    }

    private long find() {
        stack.setCopy(BREAK_SP, copy, copy.length);
        return search.find(stack, new StackBounds(STACK_LOW, STACK_HIGH), BREAK_SP);
    }

    @Test
    void findsTheSlotThatReturnsIntoANativeWrapperAfterItsCall() {
        word(BREAK_SP + 0x10, 0x1234);
        word(BREAK_SP + 0x128, AFTER_DIRECT_CALL);
        assertThat(find()).isEqualTo(BREAK_SP + 0x128);
    }

    @Test
    void aCallThroughARegisterCountsToo() {
        word(BREAK_SP + 0x40, AFTER_REGISTER_CALL);
        assertThat(find()).isEqualTo(BREAK_SP + 0x40);
    }

    @Test
    void skipsCodeThatIsNoNativeWrapperOrNotAfterACall() {
        word(BREAK_SP + 0x08, IN_NMETHOD_AFTER_CALL);
        word(BREAK_SP + 0x18, NOT_AFTER_CALL);
        word(BREAK_SP + 0x20, WRAPPER + 0x200);
        word(BREAK_SP + 0x300, AFTER_DIRECT_CALL);
        assertThat(find()).isEqualTo(BREAK_SP + 0x300);
    }

    @Test
    void looksNoFurtherThanTheCopy() {
        word(BREAK_SP + 0x08, NOT_AFTER_CALL);
        assertThat(find()).isZero();
        // Beyond the copy the stack has moved on since the sample: a wrapper's return address there says nothing.
        memory.map(STACK_LOW, STACK_HIGH - STACK_LOW);
        memory.writeLong(BREAK_SP + copy.length + 8, AFTER_DIRECT_CALL);
        assertThat(find()).isZero();
    }
}
