package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
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
}
