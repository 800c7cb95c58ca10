package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import io.mixflame.report.ProfileFiles;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code launch}: an application run with profiling started as {@code -javaagent} would, for runtimes without
 * java.instrument; with the in-process perf engine and with the helper engine (a second process samples this one and
 * streams the stacks back: Windows' native engine, run here on Linux).
 */
class LaunchIT {
    private static final Path JDK = TestJdks.all().get(0);

    @TempDir
    Path dir;

    /** The route into the JVM is the subject, not the JVM: each engine once, the JDKs in turn. */
    static Stream<Arguments> jdksAndEngines() {
        return TestJdks.spread("perf", "helper");
    }

    @ParameterizedTest
    @MethodSource("jdksAndEngines")
    void theApplicationsMainRunsProfiledToItsEnd(Path jdk, String engine) throws Exception {
        Path out = dir.resolve(engine + ".collapsed");
        CommandRun run = CommandRun.tool(jdk, dir.resolve(engine), List.of("launch",
                "start,interval=10ms,threads,engine=" + engine + ",file=" + out + ",log=debug", "--",
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "4"));

        assertThat(run.status()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("ready").contains("done");
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(text).startsWith("# mixflame engine=" + engine + " event=cpu interval=10ms");
        assertThat(text).as("the application's frames on its main thread, below the launcher's")
                .containsPattern("(?m)^\\[main tid=\\d+\\];.*io/mixflame/boot/CliBoot\\.main;.*"
                        + "io/mixflame/testapp/SpinApp\\.main;.*SpinApp\\.spinInner \\d+$");
        long spinning = text.lines().filter(l -> l.contains("SpinApp.spinInner"))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        long onMain = text.lines().filter(l -> l.startsWith("[main tid="))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        // How many samples 4 s give depends on how many ticks the engine keeps on this machine (the helper's walk
        // from another process can fall behind): the share is judged, on a count any engine reaches.
        assertThat(spinning).as("samples in spinInner over about 4 s at 10 ms").isGreaterThanOrEqualTo(20);
        assertThat((double) spinning / onMain).as("share of the main thread's samples in spinInner").isGreaterThan(0.5);
        if (engine.equals("helper")) {
            assertThat(text).as("the helper's cost notes").contains("# note: helper process: ");
            assertThat(run.stderr()).doesNotContain("WARN").doesNotContain("ERROR")
                    // From outside, sparing the JVM's JIT the flag switch's own reading of HotSpot's tables.
                    .contains("DebugNonSafepoints turned on by the helper process");
        } else {
            assertThat(run.stderr()).contains("turned on DebugNonSafepoints");
        }
    }

    /**
     * The modules the helper process saw come back over its pipe: the profile's pprof maps the JVM's launcher first
     * and libjvm by its full path, though the sampling ran in another process.
     */
    @Test
    void theHelperEnginesPprofMapsTheLauncherFirstAndEveryModuleByItsPath() throws Exception {
        Path out = dir.resolve("helper.pb.gz");
        CommandRun run = CommandRun.tool(JDK, dir.resolve("helper-pprof"), List.of("launch",
                "start,interval=10ms,engine=helper,file=" + out, "--",
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "3"));

        assertThat(run.status()).as(run.stderr()).isZero();
        Profile profile = ProfileFiles.read(out, w -> { throw new AssertionError(w); });
        List<NativeModule> modules = profile.info().modules();
        assertThat(modules).as("the modules read back from the pprof mappings").isNotEmpty();
        assertThat(modules.get(0).path()).isEqualTo(JDK.resolve("bin/java").toRealPath().toString());
        assertThat(modules).extracting(NativeModule::path)
                .contains(JDK.resolve("lib/server/libjvm.so").toRealPath().toString())
                .allMatch(p -> p.startsWith("/") || p.equals("[vdso]"), "a full path");
        assertThat(profile.frames()).as("frames keep the module's short name")
                .anyMatch(f -> "libjvm.so".equals(f.module()));
    }

    @Test
    void theApplicationSeesItsOwnClassPathAndNotTheProfiler() throws Exception {
        CommandRun run = CommandRun.tool(JDK, dir.resolve("probe"), List.of("launch",
                "start,file=" + dir.resolve("probe.collapsed"), "--", "-cp", AttachIT.TEST_CLASSES,
                "io.mixflame.testapp.LaunchProbeApp", "a b", "c"));

        assertThat(run.status()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("probe: thread main", "probe: args a b|c",
                "probe: class path " + AttachIT.TEST_CLASSES, "probe: context loader is mine true",
                "probe: cannot see io.mixflame.cli.Main", "probe: cannot see io.mixflame.agent.AgentEntry",
                "probe: cannot see com.sun.jna.Native");
        assertThat(dir.resolve("probe.collapsed")).exists();
    }

    @Test
    void anExceptionOutOfMainIsReportedAsJavaReportsItAndTheProfileIsStillWritten() throws Exception {
        Path out = dir.resolve("thrown.collapsed");
        CommandRun run = CommandRun.tool(JDK, dir.resolve("thrown"), List.of("launch", "start,file=" + out, "--",
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.LaunchProbeApp", "throw"));

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.stderr()).contains("Exception in thread \"main\" java.lang.IllegalStateException: thrown by"
                + " the application");
        assertThat(out).exists();
    }

    @Test
    void badCommandLinesAreOneLineAndRunNothing() throws Exception {
        CommandRun noDashes = CommandRun.tool(JDK, dir.resolve("nodashes"), List.of("launch", "start",
                "io.mixflame.testapp.SpinApp"));
        assertThat(noDashes.status()).isEqualTo(2);
        assertThat(noDashes.stderr().strip()).startsWith("usage: launch");
        CommandRun noClass = CommandRun.tool(JDK, dir.resolve("noclass"), List.of("launch", "start", "--", "-cp",
                AttachIT.TEST_CLASSES, "io.mixflame.testapp.Missing"));
        assertThat(noClass.status()).isEqualTo(2);
        assertThat(noClass.stderr().strip()).startsWith("mixflame launch: cannot load io.mixflame.testapp.Missing")
                .doesNotContain("\n");
        CommandRun badOptions = CommandRun.tool(JDK, dir.resolve("badoptions"), List.of("launch", "interval=soon",
                "--", "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "1"));
        assertThat(badOptions.status()).isEqualTo(2);
        assertThat(badOptions.stderr().strip()).startsWith("mixflame launch: bad options: interval")
                .doesNotContain("\n");
        assertThat(badOptions.stdout()).doesNotContain("ready");
    }
}
