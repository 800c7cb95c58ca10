package io.mixflame.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.image.dwarf.DwarfExpression;
import io.mixflame.unwind.dwarf.FrameExpressionInputs;
import org.junit.jupiter.api.Test;

class DwarfExpressionTest {
    /** GCC's CFA for x86-64 PLT entries: rsp + 8, plus 8 more in the second half of each 16-byte stub. */
    private static final byte[] PLT_CFA = {0x77, 0x08, (byte) 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22};

    @Test
    void pltExpressionDependsOnThePositionInTheStub() throws Exception {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self()) {
            StackMemory stack = new StackMemory(memory);
            Registers r = new Registers();
            r.set(X64Registers.RSP, 0x1000);
            r.set(X64Registers.RIP, 0x5000);
            DwarfExpression e = new DwarfExpression(PLT_CFA);
            assertThat(e.evaluate(new FrameExpressionInputs().of(r, stack), null)).isEqualTo(0x1008);
            r.set(X64Registers.RIP, 0x500b);
            assertThat(e.evaluate(new FrameExpressionInputs().of(r, stack), null)).isEqualTo(0x1010);
        }
    }

    @Test
    void unknownRegisterAndBadCodeAreErrorsNotCrashes() throws Exception {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self()) {
            StackMemory stack = new StackMemory(memory);
            Registers r = new Registers();
            assertThatThrownBy(() -> new DwarfExpression(new byte[] {0x76, 0x00}).evaluate(new FrameExpressionInputs().of(r, stack), null))
                    .hasMessageContaining("register 6 is not known");
            assertThatThrownBy(() -> new DwarfExpression(new byte[] {(byte) 0xe0}).evaluate(new FrameExpressionInputs().of(r, stack), null))
                    .hasMessageContaining("unsupported DWARF operation 0xe0");
            assertThatThrownBy(() -> new DwarfExpression(new byte[] {0x2f, (byte) 0xfd, (byte) 0xff}).evaluate(new FrameExpressionInputs().of(r, stack), null))
                    .hasMessageContaining("too long");
            assertThatThrownBy(() -> new DwarfExpression(new byte[] {0x30, 0x06}).evaluate(new FrameExpressionInputs().of(r, stack), null))
                    .hasMessageContaining("cannot read 0x0");
        }
    }
}
