package io.mixflame.image;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StableModuleNameTest {

    @ParameterizedTest
    @CsvSource({
            "librocksdbjni10576709545269562131.so, librocksdbjni.so",
            "libzstd-jni-1.5.7-286761275270315441095.dll, libzstd-jni-1.5.7.dll",
            "snappy-1.1.10-3f2b8c1e-9d4a-4e7b-a1c2-0b9e8d7f6a51-libsnappyjava.so, snappy-1.1.10-libsnappyjava.so",
            "snappy-1.1.10-3F2B8C1E-9D4A-4E7B-A1C2-0B9E8D7F6A51-libsnappyjava.so, snappy-1.1.10-libsnappyjava.so",
            "libnetty_tcnative_linux_x86_641884120475528837261.so, libnetty_tcnative_linux_x86_64.so",
            "libnetty_tcnative_linux_aarch_64925170164223305544.so, libnetty_tcnative_linux_aarch_64.so",
            "liblz4-java-5871604928736140391.so, liblz4-java.so",
            "jna3721890675290358472.tmp, jna.tmp",
            "12345678901234567-libfoo.so, libfoo.so",
            "libfoo.so.12345678901234, libfoo.so",
    })
    void aTemporaryCopyLosesItsRandomPart(String file, String stable) {
        assertThat(StableModuleName.hasRandomPart(file)).isTrue();
        assertThat(StableModuleName.withoutRandomPart(file)).isEqualTo(stable);
        assertThat(StableModuleName.of(file, null)).isEqualTo(stable);
    }

    @ParameterizedTest
    @ValueSource(strings = {"libz.so.1.2.13", "libjvm.so", "jvm.dll", "libc.so.6", "libstdc++.so.6.0.30",
            "ld-linux-x86-64.so.2", "libfoo-20231015.so", "[vdso]", "libicudata.so.72.1", "123456789",
            "1234567890123", "libnetty_tcnative_linux_x86_64.so"})
    void aNameWithoutARandomPartIsKeptExactly(String file) {
        assertThat(StableModuleName.hasRandomPart(file)).isFalse();
        assertThat(StableModuleName.of(file, "libsomething-else.so")).isEqualTo(file);
    }

    @Test
    void aModulesOwnNameWinsOverItsStrippedFileName() {
        assertThat(StableModuleName.of("libzstd-jni-1.5.7-286761275270315441095.so", "libzstd-jni-1.5.7-2.so"))
                .isEqualTo("libzstd-jni-1.5.7-2.so");
        assertThat(StableModuleName.of("jna3721890675290358472.tmp", "libjnidispatch.so"))
                .isEqualTo("libjnidispatch.so");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "../../etc/passwd", "C:\\x.dll", "lib\nforged.so", "---"})
    void anImplausibleOwnNameIsIgnored(String own) {
        assertThat(StableModuleName.of("librocksdbjni10576709545269562131.so", own)).isEqualTo("librocksdbjni.so");
    }

    @Test
    void anOwnNameWithARandomPartLosesItToo() {
        assertThat(StableModuleName.of("x-12345678901234.so", "liby-98765432109876.so")).isEqualTo("liby.so");
    }

    @Test
    void anOverlongOwnNameIsIgnored() {
        assertThat(StableModuleName.of("libq12345678901234.so", "l".repeat(256))).isEqualTo("libq.so");
    }
}
