package io.mixflame.unwind.pe;

import static io.mixflame.unwind.pe.PeUnwindFixture.STACK_HIGH;
import static io.mixflame.unwind.pe.PeUnwindFixture.STACK_LOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.x64.X64Registers;
import io.mixflame.image.pe.PeFormatException;
import io.mixflame.testsupport.UnwindInfoBytes;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.UnwindStatus;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Garbage unwind data over garbage stacks and code: decoding either succeeds or throws {@link PeFormatException},
 * and the step never throws, keeps its invariants, and walks to an end.
 */
class PeUnwindGarbageTest {
    private static final int ROUNDS = 1500;
    private static final int[] EPILOG_BYTES = {0x48, 0x49, 0x83, 0x81, 0xc4, 0x8d, 0x65, 0xa5, 0x58, 0x5b, 0x5d, 0x5f,
        0x41, 0xc3, 0xc2, 0xf3, 0xe9, 0xeb, 0xff, 0x25, 0x20};

    @Test
    void garbageNeverThrowsNorLoops() {
        Random random = new Random(20261123);
        Map<UnwindStatus, Integer> outcomes = new EnumMap<>(UnwindStatus.class);
        int malformed = 0;
        for (int round = 0; round < ROUNDS; round++) {
            PeUnwindFixture f = new PeUnwindFixture();
            for (int i = 0; i < f.text.length; i++) {
                f.text[i] = (byte) (random.nextInt(3) == 0 ? random.nextInt(256)
                        : EPILOG_BYTES[random.nextInt(EPILOG_BYTES.length)]);
            }
            f.load(0x1000, 0x1200, garbageInfo(random));
            long sp = STACK_LOW + 8L * random.nextInt((int) ((STACK_HIGH - STACK_LOW) / 8));
            for (long a = sp - 0x100; a < sp + 0x800 && a < STACK_HIGH; a += 8) {
                f.stack(a, garbageValue(random, sp));
            }
            Registers regs = PeUnwindFixture.regs(sp + (random.nextInt(8) == 0 ? random.nextInt(8) : 0));
            for (int r = 0; r < 16; r++) {
                if (r != X64Registers.RSP && random.nextBoolean()) {
                    regs.set(r, garbageValue(random, sp));
                }
            }
            long pcRva = 0x1000 + random.nextInt(0x240);
            try {
                UnwindStatus status = walk(f, regs, pcRva);
                outcomes.merge(status, 1, Integer::sum);
            } catch (PeFormatException e) {
                malformed++;
            }
        }
        // The garbage must exercise every outcome, or the test proves little.
        assertThat(malformed).isPositive();
        assertThat(outcomes.getOrDefault(UnwindStatus.FAILED, 0)).isPositive();
        assertThat(outcomes.getOrDefault(UnwindStatus.COMPLETED, 0)).isPositive();
    }

    /** Steps until the walk ends, checking each step's invariants; returns how it ended. */
    private static UnwindStatus walk(PeUnwindFixture f, Registers regs, long pcRva) {
        int steps = 0;
        long rva = pcRva;
        while (true) {
            Registers before = new Registers();
            before.copyFrom(regs);
            PeUnwindResult result = f.unwind(rva, regs);
            steps++;
            if (result.status() == UnwindStatus.FAILED) {
                assertThat(result.failure()).isNotBlank();
                assertThat(regs.sp()).isEqualTo(before.sp());
                assertThat(regs.pc()).isEqualTo(PeUnwindFixture.BASE + rva);
                return UnwindStatus.FAILED;
            }
            if (result.status() == UnwindStatus.COMPLETED) {
                assertThat(regs.pc()).isZero();
                return UnwindStatus.COMPLETED;
            }
            assertThat(Long.compareUnsigned(regs.sp(), before.sp())).isPositive();
            assertThat(regs.sp()).isBetween(STACK_LOW, STACK_HIGH - 1);
            assertThat(regs.sp() & 7).isZero();
            // rsp rises by at least 8 a step, so a walk is bounded by the stack's size.
            assertThat(steps).isLessThanOrEqualTo((int) ((STACK_HIGH - STACK_LOW) / 8));
            rva = regs.pc() - PeUnwindFixture.BASE;
        }
    }

    private static byte[] garbageInfo(Random random) {
        UnwindInfoBytes info = new UnwindInfoBytes()
                .version(random.nextInt(10) == 0 ? random.nextInt(8) : 1 + random.nextInt(2))
                .flags(random.nextInt(4))
                .prolog(random.nextInt(256))
                .frame(random.nextInt(16), random.nextInt(16));
        int slots = random.nextInt(24);
        for (int i = 0; i < slots; i++) {
            if (random.nextInt(3) == 0) {
                info.slot(random.nextInt(1 << 16));
            } else {
                info.code(random.nextInt(64), random.nextInt(12), random.nextInt(16));
            }
        }
        if (random.nextInt(4) == 0) {
            // Chain to this same info (a cycle) or to a random RVA.
            info.chainTo(random.nextInt(0x2000), random.nextInt(0x2000),
                    random.nextBoolean() ? 0x2000 : random.nextInt(0x4000));
        }
        if (random.nextInt(6) == 0) {
            info.slotCount(random.nextInt(256));
        }
        return info.toByteArray();
    }

    /** A stack slot or register: zero, a stack address, a code address, or anything. */
    private static long garbageValue(Random random, long sp) {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> sp + 8L * (random.nextInt(0x200) - 0x20);
            case 2 -> PeUnwindFixture.BASE + 0x1000 + random.nextInt(0x300);
            case 3 -> sp + random.nextInt(0x1000);
            default -> random.nextLong();
        };
    }
}
