package io.mixflame.stack;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.FrameType;
import org.junit.jupiter.api.Test;

class StackFrameTest {
    private static StackFrame nativeFrame(String module, String symbol, long displacement) {
        return new StackFrame(FrameType.NATIVE, 0x7ff6_1234_5678L, module, symbol, displacement, null, null, null, 0,
                0, 0, 0);
    }

    @Test
    void aNativeFrameWithASymbolIsModuleBangSymbolPlusOffset() {
        assertThat(nativeFrame("ntdll.dll", "NtDelayExecution", 0x14).describe())
                .isEqualTo("ntdll.dll!NtDelayExecution+0x14");
        assertThat(nativeFrame("libc.so.6", "read", 0).describe()).isEqualTo("libc.so.6!read");
    }

    @Test
    void aNativeFrameWithoutASymbolIsItsAddressInTheModulesOwnTermsNotTheProcesss() {
        assertThat(nativeFrame("jvm.dll", null, 0x3f07ee).describe()).isEqualTo("jvm.dll+0x3f07ee");
    }

    @Test
    void anAddressOutsideEveryModuleIsTheAddress() {
        assertThat(nativeFrame(null, null, 0).describe()).isEqualTo("0x7ff612345678");
    }

    @Test
    void aJavaFrameReadsAsJstackWrites() {
        StackFrame f = new StackFrame(FrameType.JIT_COMPILED, 1, null, null, 0, "a.B", "run", "B.java", 12, 0, 0, 0);
        assertThat(f.describe()).isEqualTo("a.B.run(B.java:12)");
        StackFrame unknown = new StackFrame(FrameType.INTERPRETED, 1, null, null, 0, "a.B", "run", null, 0, 0, 0, 0);
        assertThat(unknown.describe()).isEqualTo("a.B.run(Unknown Source)");
    }
}
