package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.process.MemoryReadException;
import io.mixflame.testsupport.FakeProcessMemory;
import org.junit.jupiter.api.Test;

/** StackMemory's record of reads of the live stack above the sample's copy, and what the copy holds. */
class StackMemoryTest {
    private static final long SP = 0x7f00_0000_1000L;
    private static final long HIGH = 0x7f00_0001_0000L;

    private final FakeProcessMemory process = new FakeProcessMemory().map(SP - 0x1000, HIGH - SP + 0x2000);
    private final StackMemory memory = new StackMemory(process);

    private void copyOf(int bytes) {
        memory.setCopy(SP, new byte[bytes], bytes);
        memory.setStackHigh(HIGH);
    }

    @Test
    void readsInsideTheCopyOrOutsideTheStackAreNotAboveIt() throws Exception {
        copyOf(256);
        memory.readLong(SP);
        memory.readLong(SP + 248);
        memory.read(SP + 128, new byte[128], 0, 128);
        assertThat(memory.readAboveCopy()).as("inside the copy").isFalse();
        memory.readLong(SP - 8);
        assertThat(memory.readAboveCopy()).as("below sp").isFalse();
        memory.readLong(HIGH);
        assertThat(memory.readAboveCopy()).as("past the stack's end").isFalse();
    }

    @Test
    void aWordAboveTheCopyInsideTheStackIsNoted() throws Exception {
        copyOf(256);
        memory.readLong(SP + 256);
        assertThat(memory.readAboveCopy()).isTrue();
    }

    @Test
    void aBlockReachingPastTheCopyIsNotedAndANewCopyClearsIt() {
        copyOf(256);
        memory.read(SP + 200, new byte[100], 0, 100);
        assertThat(memory.readAboveCopy()).isTrue();
        copyOf(256);
        assertThat(memory.readAboveCopy()).as("cleared per sample").isFalse();
    }

    @Test
    void theCopyHoldsOnlyWhatLiesWhollyInsideIt() {
        copyOf(256);
        assertThat(memory.copyHolds(SP, 8)).isTrue();
        assertThat(memory.copyHolds(SP + 248, 8)).isTrue();
        assertThat(memory.copyHolds(SP + 252, 8)).as("straddling its end").isFalse();
        assertThat(memory.copyHolds(SP + 256, 8)).as("above it").isFalse();
        assertThat(memory.copyHolds(SP - 8, 8)).as("below sp").isFalse();
        memory.clearCopy();
        assertThat(memory.copyHolds(SP, 8)).as("no copy").isFalse();
    }

    @Test
    void withoutKnownStackBoundsNothingIsNoted() throws Exception {
        memory.setCopy(SP, new byte[256], 256);
        memory.readLong(SP + 512);
        assertThat(memory.readAboveCopy()).isFalse();
    }

    @Test
    void theWalkerSetsTheBoundsFromTheRegionAroundSp() throws Exception {
        UnwindContext context = new UnwindContext(memory, null);
        memory.setCopy(SP, new byte[256], 256);
        context.registers().set(X64Registers.RSP, SP);
        context.setBounds(new StackBounds(SP - 0x1000, HIGH));
        // An alternate signal stack, met later in the walk, does not move the end of the sample's stack.
        context.setBounds(new StackBounds(0x1000, 0x2000));
        memory.readLong(SP + 4096);
        assertThat(memory.readAboveCopy()).isTrue();
    }

    @Test
    void aboveACopyWhoseEndTheLiveStackStillHoldsTheLiveStackIsRead() throws Exception {
        byte[] bytes = pattern(256, 7);
        process.write(SP, bytes).writeLong(SP + 256, 0x1234L);
        memory.setCopy(SP, bytes, bytes.length);
        memory.setStackHigh(HIGH);
        assertThat(memory.readLong(SP + 256)).isEqualTo(0x1234L);
        assertThat(memory.liveStackMovedOn()).isFalse();
        assertThat(memory.readAboveCopy()).isTrue();
    }

    @Test
    void aboveACopyWhoseEndChangedSinceTheSampleNothingIsRead() throws Exception {
        // The thread returned past the copy's end and called elsewhere: the frames above are not the sample's.
        byte[] bytes = pattern(256, 7);
        process.write(SP, pattern(256, 9)).writeLong(SP + 256, 0x1234L);
        memory.setCopy(SP, bytes, bytes.length);
        memory.setStackHigh(HIGH);
        assertThatThrownBy(() -> memory.readLong(SP + 256)).isInstanceOf(MemoryReadException.class);
        assertThat(memory.liveStackMovedOn()).isTrue();
        assertThat(memory.readAboveCopy()).as("a larger copy would have held it").isTrue();
        byte[] out = new byte[64];
        assertThat(memory.read(SP + 224, out, 0, 64)).as("only the part the copy holds").isEqualTo(32);
        assertThat(out[0]).isEqualTo(bytes[224]);
        assertThat(memory.readLong(SP + 8)).as("the copy itself").isEqualTo(ByteBufferWords.at(bytes, 8));
        assertThat(memory.readLong(HIGH + 8)).as("memory outside the stack is read as ever").isZero();
        memory.setCopy(SP, pattern(256, 9), 256);
        memory.setStackHigh(HIGH);
        assertThat(memory.readLong(SP + 256)).as("checked again for each sample").isEqualTo(0x1234L);
    }

    private static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * seed + 1);
        }
        return b;
    }

    /** Little-endian words of a byte array, as the copy reads them. */
    private static final class ByteBufferWords {
        static long at(byte[] bytes, int offset) {
            return java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(offset);
        }
    }
}
