package io.mixflame.unwind.pe;

import static io.mixflame.unwind.pe.PeProcessFixture.BASE;
import static io.mixflame.unwind.pe.PeProcessFixture.STACK_HIGH;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.UnwindInfoBytes;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PeUnwinder} keeps what it found for each pc: the same unwinder must still follow the module that is mapped
 * at the pc now, when another module map (another process, or a module replaced) puts other code there.
 */
class PeUnwinderPcCacheTest {
    private static final long PC = BASE + 0x1150;
    private static final long SP = STACK_HIGH - 0x1000;
    private static final long CALLER = BASE + 0x1010;

    @TempDir
    Path dirA;
    @TempDir
    Path dirB;

    /** A process whose function at 0x1100 allocates {@code frame} bytes, called from 0x1010. */
    private static PeProcessFixture process(Path dir, int frame) {
        byte[] text = new byte[0x400];
        Arrays.fill(text, (byte) 0x90);
        PeProcessFixture p = new PeProcessFixture(dir, text, List.of(new PeImageBuilder.Function(0x1100, 0x1200,
                new UnwindInfoBytes().prolog(4).allocSmall(4, frame).toByteArray())));
        p.stack(SP + frame, CALLER);
        return p;
    }

    private static long[] unwind(PeUnwinder unwinder, UnwindContext context) {
        assertThat(unwinder.canUnwindFrom(context)).isTrue();
        assertThat(unwinder.tryUnwind(context)).isEqualTo(UnwindStatus.UNWOUND);
        return new long[] {context.registers().get(X64Registers.RIP), context.registers().get(X64Registers.RSP)};
    }

    @Test
    void theSamePcIsUnwoundAsItsModuleNowSays() {
        PeProcessFixture small = process(dirA, 0x20);
        PeProcessFixture large = process(dirB, 0x40);
        PeUnwinder unwinder = new PeUnwinder();

        assertThat(unwind(unwinder, small.context(PC, SP))).containsExactly(CALLER, SP + 0x28);
        assertThat(unwind(unwinder, small.context(PC, SP))).as("again, from what was kept")
                .containsExactly(CALLER, SP + 0x28);
        assertThat(unwind(unwinder, large.context(PC, SP))).as("another map, other code at the pc")
                .containsExactly(CALLER, SP + 0x48);
        assertThat(unwind(unwinder, small.context(PC, SP))).containsExactly(CALLER, SP + 0x28);
    }
}
