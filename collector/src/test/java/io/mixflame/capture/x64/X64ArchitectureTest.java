package io.mixflame.capture.x64;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.HostArchitecture;
import io.mixflame.capture.HostRegisters;
import io.mixflame.capture.perf.UserRegisters;
import org.junit.jupiter.api.Test;

/** x86-64's description: the host's where the tests run, and its layouts as the kernel and the handler lay them out. */
class X64ArchitectureTest {
    private final X64Architecture x64 = new X64Architecture();

    @Test
    void isTheHostsArchitectureOnAnX86Host() {
        assertThat(HostArchitecture.unsupportedReason()).isNull();
        assertThat(HostArchitecture.current()).isInstanceOf(X64Architecture.class);
        assertThat(HostRegisters.PC).isEqualTo(X64Registers.RIP);
        assertThat(HostRegisters.SP).isEqualTo(X64Registers.RSP);
        assertThat(HostRegisters.FP).isEqualTo(X64Registers.RBP);
        assertThat(HostRegisters.COUNT).isEqualTo(17);
    }

    @Test
    void perfSlotsFollowTheMaskOrder() {
        assertThat(x64.perfRegisterMask()).isEqualTo((1L << 1) | (1L << 6) | (1L << 7) | (1L << 8) | (0xfL << 20));
        assertThat(x64.perfSampleRegisters()).containsExactly(X64Registers.RBX, X64Registers.RBP, X64Registers.RSP,
                X64Registers.RIP, X64Registers.R12, X64Registers.R13, X64Registers.R14, X64Registers.R15);
        assertThat(UserRegisters.SP_SLOT).isEqualTo(2);
        assertThat(UserRegisters.PC_SLOT).isEqualTo(3);
        assertThat(UserRegisters.slotOf(X64Registers.R15)).isEqualTo(7);
    }

    @Test
    void ptraceWordsAreUserRegsStructs() {
        int[] words = x64.ptraceRegisterWords();
        assertThat(words[X64Registers.RIP]).isEqualTo(16);
        assertThat(words[X64Registers.RSP]).isEqualTo(19);
        assertThat(words[X64Registers.RBP]).isEqualTo(4);
        assertThat(words[X64Registers.RBX]).isEqualTo(5);
        assertThat(words[X64Registers.R12]).isEqualTo(3);
        assertThat(x64.ptraceRegisterBytes()).isEqualTo(27 * 8);
    }

    @Test
    void timerRecordHoldsDwarfsRegistersInOrder() {
        int[] slots = x64.timerRecordRegisters();
        assertThat(slots).hasSize(17);
        for (int i = 0; i < slots.length; i++) {
            assertThat(slots[i]).isEqualTo(i);
        }
    }

    @Test
    void isNamedByBothOfTheJvmsNames() {
        assertThat(x64.isNamed("amd64")).isTrue();
        assertThat(x64.isNamed("x86_64")).isTrue();
        assertThat(x64.isNamed("aarch64")).isFalse();
    }
}
