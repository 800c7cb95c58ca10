package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.gotool.GoPprof;
import io.mixflame.examples.gotool.GoToolchain;
import io.mixflame.examples.gotool.PprofTraces;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's pprof file as Go's own pprof reads it: the {@code mixed} example profiled with {@code threads} into a
 * {@code .pb.gz}, then {@code go tool pprof -top}, {@code -traces}, {@code -lines -traces}, {@code -tags} and
 * {@code -raw} on it. Java frames and native ones (zlib's {@code deflate} below the JNI function below
 * {@code Deflater.deflateBytesBytes}; libc's {@code memcmp} below its Java caller), the line each Java frame ran, the
 * threads as labels, and the main executable (the JDK's {@code java} launcher) as pprof's {@code File:} and mapping
 * 1, every mapping with its full path; JNA's library, a temporary copy, mapped by its path and named {@code jna.tmp}
 * in frames (or, where the profiler's own copy of that build is sampled first, mapped by that copy's path). Go comes
 * from {@code .ci/go-toolchain}; where it cannot be installed the test is reported as not run with the script's
 * reason.
 */
class GoPprofIT {
    private static final String MEMCMP_CALLER = "io/mixflame/examples/mixed/MemcmpPhase.run";
    /** Any of libc's memcmp variants ({@code __memcmp_avx2_movbe}, {@code __memcmp_evex_movbe}, ...). */
    private static final String MEMCMP = "\\S*memcmp\\S*";

    @TempDir
    Path dir;

    @Test
    void goToolPprofReadsJavaAndNativeFramesLinesThreadsAndTheMainExecutable() throws Exception {
        // First, so that a machine without Go does not profile for nothing before reporting not run.
        GoPprof pprof = new GoPprof(GoToolchain.require(), dir);
        Path jdk = TestJdks.all().get(0);
        Path profile = profileMixed(jdk);

        String top = pprof.report(profile, "-top");
        assertThat(top.lines()).as(top).contains("File: java").noneMatch(l -> l.startsWith("File: lib"));
        assertThat(top).as("the engine's comment").contains("mixflame engine=perf event=cpu");

        List<String> mappings = mappingFiles(pprof.report(profile, "-raw"));
        assertThat(mappings).as("mapping 1 is the launcher, by its full path")
                .first().isEqualTo(jdk.resolve("bin/java").toRealPath().toString());
        assertThat(mappings).as("mappings by full path (the vDSO has none)")
                .allMatch(f -> f.startsWith("/") || f.equals("[vdso]"), "a full path")
                .contains(jdk.resolve("lib/server/libjvm.so").toRealPath().toString())
                .anyMatch(f -> f.matches("/.*/libz\\.so[.0-9]*"))
                .anyMatch(f -> f.matches("/.*/libc\\.so\\.6"));

        // The example's JNA library is a temporary copy (jna<random digits>.tmp): its mapping keeps the path, its
        // frames the stable name, which a comment gives the mapping. The profiler's JNA, the same bytes from its
        // cache directory, shares that mapping (pprof merges one build id's mappings), and names it when a sample in
        // the agent's start-up came first.
        int jna = indexOfMatch(mappings, "/.*/jna\\d{10,}\\.tmp");
        int profilersJna = indexOfMatch(mappings, "/.*/libjnidispatch-[0-9a-f]+-\\d+\\.so");
        assertThat(jna >= 0 || profilersJna >= 0).as("JNA's library mapped by its path: %s", mappings).isTrue();
        assertThat(jna < 0 || profilersJna < 0).as("one mapping for one build of JNA: %s", mappings).isTrue();
        if (jna >= 0) {
            assertThat(top).contains("mixflame mapping " + (jna + 1) + " module jna.tmp");
        }

        String tracesReport = pprof.report(profile, "-traces");
        assertThat(tracesReport).as("no frame named after the temporary copy's random name")
                .doesNotContainPattern("jna\\d{10,}");
        PprofTraces traces = PprofTraces.parse(tracesReport);
        List<PprofTraces.Trace> workload = traces.labelled("[mixed-workload tid=");
        assertThat(workload).as("the workload's thread as a label").isNotEmpty();
        assertThat(workload).as("zlib's deflate below the JNI function below Deflater.deflateBytesBytes")
                .anyMatch(t -> t.calls(name("Java_java_util_zip_Deflater_deflateBytesBytes"), name("deflate"))
                        && t.calls(name("java/util/zip/Deflater.deflateBytesBytes"),
                        name("Java_java_util_zip_Deflater_deflateBytesBytes")));
        assertThat(workload).as("libc's memcmp below its Java caller")
                .anyMatch(t -> t.calls(name(MEMCMP_CALLER), MEMCMP));
        assertThat(workload).as("the check must fail for a call that never happens")
                .noneMatch(t -> t.calls(name("deflate"), name(MEMCMP_CALLER)));

        int callLine = sourceLine("examples/src/main/java/io/mixflame/examples/mixed/MemcmpPhase.java",
                "LibC.INSTANCE.memcmp(");
        PprofTraces withLines = PprofTraces.parse(pprof.report(profile, "-lines", "-traces"));
        assertThat(withLines.labelled("[mixed-workload tid=")).as("the caller's frame at the line of its memcmp call")
                .anyMatch(t -> t.calls(name(MEMCMP_CALLER + " io/mixflame/examples/mixed/MemcmpPhase.java:" + callLine),
                        MEMCMP + "( .*)?"));

        String tags = pprof.report(profile, "-tags");
        assertThat(tags).contains("thread: Total");
        assertThat(threadLabels(tags)).as(tags).contains("[mixed-workload")
                .hasSizeGreaterThanOrEqualTo(2);
    }

    /** A regular expression matching exactly this frame name. */
    private static String name(String frame) {
        return Pattern.quote(frame);
    }

    /** The quick start's command with {@code threads}, into pprof: six seconds of the mixed example. */
    private Path profileMixed(Path jdk) throws Exception {
        Path pb = dir.resolve("mixed.pb.gz");
        List<String> args = List.of("-javaagent:" + BuiltJars.agent() + "=start,threads,file=" + pb, "-jar",
                BuiltJars.examples().toString(), "mixed", "--seconds", "6");
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        assertThat(pb).isRegularFile();
        return pb;
    }

    /** The index of the first of {@code files} that matches {@code regex}, or -1. */
    private static int indexOfMatch(List<String> files, String regex) {
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).matches(regex)) {
                return i;
            }
        }
        return -1;
    }

    /** The files of {@code -raw}'s mappings, in id order: {@code 1: 0xSTART/0xLIMIT/0xOFFSET FILE [BUILDID] [FN]}. */
    private static List<String> mappingFiles(String raw) {
        List<String> files = new ArrayList<>();
        Pattern mapping = Pattern.compile("^(\\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\\S+)");
        boolean inMappings = false;
        for (String line : raw.lines().toList()) {
            if (line.equals("Mappings")) {
                inMappings = true;
                continue;
            }
            Matcher m = mapping.matcher(line);
            if (inMappings && m.find()) {
                assertThat(Integer.parseInt(m.group(1))).as("mapping ids in order").isEqualTo(files.size() + 1);
                files.add(m.group(2));
            }
        }
        assertThat(files).as(raw).isNotEmpty();
        return files;
    }

    /** The thread names of {@code -tags}' {@code thread} lines, {@code 2.6s (66.16%): [main tid=12]}, without tids. */
    private static List<String> threadLabels(String tags) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("%\\): (\\[.*) tid=\\d+]").matcher(tags);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** The 1-based number of the first line of a project source file that contains {@code text}. */
    private static int sourceLine(String file, String text) throws Exception {
        List<String> lines = Files.readAllLines(BuiltJars.projectRoot().resolve(file));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        throw new AssertionError(text + " not in " + file);
    }
}
