package io.mixflame.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The choice of the host's architecture, and the soft refusal where none describes it. */
class HostArchitectureTest {

    @Test
    void anUnknownArchitectureIsUnsupportedWithAReasonInOneLine() {
        CpuArchitecture chosen = HostArchitecture.choose("riscv64", List.of(new Fake(16)));
        assertThat(chosen).isInstanceOf(UnsupportedArchitecture.class);
        String reason = ((UnsupportedArchitecture) chosen).reason();
        assertThat(reason).contains("riscv64").contains("fake").doesNotContain("\n");
        assertThat(chosen.registerCount()).as("room for any architecture's numbers").isEqualTo(64);
    }

    @Test
    void theArchitectureThatNamesTheHostIsChosen() {
        Fake fake = new Fake(33);
        assertThat(HostArchitecture.choose("fake64", List.of(fake))).isSameAs(fake);
    }

    @Test
    void anInconsistentDescriptionIsRefused() {
        CpuArchitecture chosen = HostArchitecture.choose("fake64", List.of(new Fake(65)));
        assertThat(chosen).isInstanceOf(UnsupportedArchitecture.class);
        assertThat(((UnsupportedArchitecture) chosen).reason()).contains("inconsistent").contains("65 registers");
    }

    /** An architecture of {@code count} registers, pc the last, named fake64. */
    private static final class Fake implements CpuArchitecture {
        private final int count;

        Fake(int count) {
            this.count = count;
        }

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public boolean isNamed(String osArch) {
            return osArch.equals("fake64");
        }

        @Override
        public int registerCount() {
            return count;
        }

        @Override
        public int programCounter() {
            return count - 1;
        }

        @Override
        public int stackPointer() {
            return count - 2;
        }

        @Override
        public int framePointer() {
            return 0;
        }

        @Override
        public long perfRegisterMask() {
            return 0b11;
        }

        @Override
        public int[] perfSampleRegisters() {
            return new int[] {count - 2, count - 1};
        }

        @Override
        public int ptraceRegisterBytes() {
            return 8 * count;
        }

        @Override
        public int[] ptraceRegisterWords() {
            int[] words = new int[count];
            for (int i = 0; i < count; i++) {
                words[i] = i;
            }
            return words;
        }

        @Override
        public int[] timerRecordRegisters() {
            return new int[] {count - 1, count - 2};
        }
    }
}
