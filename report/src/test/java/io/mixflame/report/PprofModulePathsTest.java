package io.mixflame.report;

import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** pprof's mappings hold the modules' full paths and build ids, the main executable first, and read back. */
class PprofModulePathsTest {
    private static final NativeModule JAVA = new NativeModule("java", "/usr/lib/jvm/jdk-17/bin/java", "0a1b2c");
    private static final NativeModule LIBZ = new NativeModule("libz.so.1.2.13",
            "/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "ffee0011");
    private static final NativeModule ROCKSDB = new NativeModule("librocksdbjni.so",
            "/tmp/librocksdbjni10576709545269562131.so", "");

    private static Profile profile(List<NativeModule> modules) {
        ProfileInfo info = TestProfiles.JFR_CPU.withModules(modules);
        return TestProfiles.with(info)
                .add(3, Frame.thread("w", 8), jit("a/B.run"), Frame.nativeCode("deflate", "libz.so.1.2.13", 0x7000))
                .add(2, jit("a/B.run"), Frame.nativeCode("[librocksdbjni.so+0x4a00]", "librocksdbjni.so", 0x4a00))
                .add(1, jit("a/B.run"), Frame.nativeCode("memcpy", "libc.so.6", 0x40))
                .build();
    }

    /** Mapping id to {file, build id}. */
    private static Map<Long, List<String>> mappings(PprofWriterTest.Decoded d) {
        Map<Long, List<String>> byId = new HashMap<>();
        for (long[] m : d.mappings) {
            byId.put(m[1], List.of(d.string(m[5]), d.string(m[6])));
        }
        return byId;
    }

    @Test
    void theMainExecutableIsMappingOneWithoutAFrameInItAndEveryKnownModuleHasItsPathAndBuildId() throws IOException {
        PprofWriterTest.Decoded d = PprofWriterTest.decode(PprofWriterTest.write(profile(List.of(JAVA, LIBZ, ROCKSDB))));

        assertThat(mappings(d)).containsOnly(
                Map.entry(1L, List.of("/usr/lib/jvm/jdk-17/bin/java", "0a1b2c")),
                Map.entry(2L, List.of("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "ffee0011")),
                Map.entry(3L, List.of("/tmp/librocksdbjni10576709545269562131.so", "")),
                Map.entry(4L, List.of("libc.so.6", "")));
        Map<String, Long> mappingOf = new HashMap<>();
        d.locationFunction.forEach((location, function) -> mappingOf.put(
                d.string(d.functionNames.get(function)[0]), d.locationMappingAndAddress.get(location)[0]));
        assertThat(mappingOf).contains(Map.entry("deflate", 2L), Map.entry("[librocksdbjni.so+0x4a00]", 3L),
                Map.entry("memcpy", 4L), Map.entry("a/B.run", 0L));
    }

    @Test
    void aModuleNamedOtherwiseThanItsFileIsSaidInAComment() throws IOException {
        PprofWriterTest.Decoded d = PprofWriterTest.decode(PprofWriterTest.write(profile(List.of(JAVA, LIBZ, ROCKSDB))));

        List<String> comments = new ArrayList<>();
        d.comments.forEach(c -> comments.add(d.string(c)));
        assertThat(comments).contains("mixflame mapping 3 module librocksdbjni.so")
                .noneMatch(c -> c.contains("module libz") || c.contains("module java"));
    }

    @Test
    void readBackFramesKeepTheShortNameAndTheProfileKeepsThePaths() throws IOException {
        Profile written = profile(List.of(JAVA, LIBZ, ROCKSDB));

        Profile back = new PprofReader(ReadBounds.DEFAULT).read(
                new ByteArrayInputStream(PprofWriterTest.write(written)), w -> { throw new AssertionError(w); });

        List<String> modules = new ArrayList<>();
        for (Frame f : back.frames()) {
            if (f.module() != null && !f.type().isJava()) {
                modules.add(f.module());
            }
        }
        assertThat(modules).containsExactlyInAnyOrder("libz.so.1.2.13", "librocksdbjni.so", "libc.so.6");
        assertThat(back.info().modules()).containsExactly(JAVA, LIBZ, ROCKSDB, new NativeModule("libc.so.6",
                "libc.so.6", ""));
        assertThat(back.info().notes()).isEqualTo(written.info().notes());
        assertThat(TestProfiles.collapsedStacks(back)).isEqualTo(TestProfiles.collapsedStacks(written));
    }

    @Test
    void twoCopiesOfOneLibraryAreOneMappingAsPprofWouldMergeThem() throws IOException {
        // The application's JNA unpacked to a temporary file, the profiler's from its cache: one build id.
        NativeModule unpacked = new NativeModule("jna.tmp", "/root/.cache/JNA/temp/jna3721890675290358472.tmp",
                "4c60f4");
        NativeModule cached = new NativeModule("libjnidispatch-23f864eb-134447.so",
                "/root/.cache/mixflame/modules/libjnidispatch-23f864eb-134447.so", "4c60f4");
        Profile p = TestProfiles.with(TestProfiles.JFR_CPU.withModules(List.of(JAVA, unpacked, LIBZ, cached)))
                .add(3, jit("a/B.run"), Frame.nativeCode("ffi_call", "jna.tmp", 0x14fd0))
                .add(1, jit("a/B.run"), Frame.nativeCode("deflate", "libz.so.1.2.13", 0x7000))
                .add(2, jit("m/Agent.start"), Frame.nativeCode("[libjnidispatch-23f864eb-134447.so+0x16000]",
                        "libjnidispatch-23f864eb-134447.so", 0x16000))
                .build();

        PprofWriterTest.Decoded d = PprofWriterTest.decode(PprofWriterTest.write(p));

        assertThat(mappings(d)).containsOnly(
                Map.entry(1L, List.of("/usr/lib/jvm/jdk-17/bin/java", "0a1b2c")),
                Map.entry(2L, List.of("/root/.cache/JNA/temp/jna3721890675290358472.tmp", "4c60f4")),
                Map.entry(3L, List.of("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "ffee0011")));
        Map<String, long[]> located = new HashMap<>();
        d.locationFunction.forEach((location, function) -> located.put(
                d.string(d.functionNames.get(function)[0]), d.locationMappingAndAddress.get(location)));
        long[] mapping2 = d.mappings.stream().filter(m -> m[1] == 2).findFirst().orElseThrow();
        assertThat(located.get("ffi_call")[0]).isEqualTo(2L);
        assertThat(located.get("[libjnidispatch-23f864eb-134447.so+0x16000]")[0]).isEqualTo(2L);
        assertThat(located.get("[libjnidispatch-23f864eb-134447.so+0x16000]")[1]).as("inside the shared range")
                .isGreaterThanOrEqualTo(mapping2[2]).isLessThan(mapping2[3]);
        List<String> comments = new ArrayList<>();
        d.comments.forEach(c -> comments.add(d.string(c)));
        assertThat(comments).contains("mixflame mapping 2 module jna.tmp").noneMatch(c -> c.contains("mapping 4"));
    }

    @Test
    void aProfileWithoutModulesMapsWhatItsFramesName() throws IOException {
        PprofWriterTest.Decoded d = PprofWriterTest.decode(PprofWriterTest.write(profile(List.of())));

        assertThat(mappings(d)).containsOnly(
                Map.entry(1L, List.of("libz.so.1.2.13", "")),
                Map.entry(2L, List.of("librocksdbjni.so", "")),
                Map.entry(3L, List.of("libc.so.6", "")));
    }

    @Test
    void aWindowsPathReadsBackAsItsFileName() throws IOException {
        NativeModule jvm = new NativeModule("jvm.dll", "C:\\jre\\bin\\server\\jvm.dll", "");
        Profile p = TestProfiles.with(TestProfiles.JFR_CPU.withModules(List.of(
                        new NativeModule("java.exe", "C:\\jre\\bin\\java.exe", ""), jvm)))
                .add(1, jit("a/B.run"), Frame.nativeCode("JVM_Sleep", "jvm.dll", 0x100)).build();

        Profile back = new PprofReader(ReadBounds.DEFAULT).read(
                new ByteArrayInputStream(PprofWriterTest.write(p)), w -> { throw new AssertionError(w); });

        assertThat(back.frames()).contains(Frame.nativeCode("JVM_Sleep", "jvm.dll", 0x100));
        assertThat(back.info().modules()).element(1).isEqualTo(jvm);
    }

    @Test
    void controlCharactersInAPathDoNotReachTheOutput() throws IOException {
        NativeModule hostile = new NativeModule("libx.so", "/tmp/a\nb\u0007/libx.so", "");
        Profile p = TestProfiles.with(TestProfiles.JFR_CPU.withModules(List.of(hostile)))
                .add(1, Frame.nativeCode("f", "libx.so", 0x10)).build();

        PprofWriterTest.Decoded d = PprofWriterTest.decode(PprofWriterTest.write(p));

        assertThat(mappings(d).get(1L).get(0)).isEqualTo("/tmp/a b /libx.so");
    }
}
