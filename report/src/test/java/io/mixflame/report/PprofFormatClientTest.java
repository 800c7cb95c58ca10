package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads the pprof output with a real client that shares no code with the writer: the npm package
 * {@code pprof-format}, installed at test time into a cache ({@code src/test/node/install-pprof-format}) and run by
 * {@code src/test/node/read-pprof.cjs}. Where node, npm or the registry is missing, the tests are aborted with the
 * reason (reported as not run), never passed.
 */
class PprofFormatClientTest {

    private static final Path NODE_DIR = Path.of("src", "test", "node");
    private static int installExit;
    private static String installOutput;

    @TempDir
    Path dir;

    @BeforeAll
    static void installPprofFormat() throws Exception {
        Process p = new ProcessBuilder("bash", NODE_DIR.resolve("install-pprof-format").toString())
                .redirectErrorStream(true).start();
        installOutput = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(15, TimeUnit.MINUTES)).as("install-pprof-format finished").isTrue();
        installExit = p.exitValue();
    }

    /** The installed package's node_modules; each test not run (aborted with the reason) when there is none. */
    private static Path nodeModules() {
        if (installExit == 2) {
            Assumptions.abort("NOT RUN: " + installOutput);
        }
        assertThat(installExit).as(installOutput).isZero();
        assertThat(installOutput).startsWith("node-modules=");
        return Path.of(installOutput.substring("node-modules=".length()));
    }

    private List<String> read(Profile profile) throws Exception {
        Path modules = nodeModules();
        Path file = dir.resolve("p.pb.gz");
        try (OutputStream out = Files.newOutputStream(file)) {
            new PprofWriter().write(profile, out);
        }
        Process p = new ProcessBuilder("node", NODE_DIR.resolve("read-pprof.cjs").toString(), modules.toString(),
                file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
    }

    /** The sample lines the reader should print for the profile: computed from its stacks, not written out. */
    private static List<String> expectedSamples(Profile profile, boolean weighed) {
        List<String> lines = new ArrayList<>();
        for (Profile.Stack stack : profile.stacks()) {
            Frame[] rootFirst = profile.framesOf(stack);
            boolean threaded = rootFirst.length > 0 && rootFirst[0].type() == FrameType.THREAD;
            List<String> leafFirst = new ArrayList<>();
            for (int i = rootFirst.length - 1; i >= (threaded ? 1 : 0); i--) {
                Frame f = rootFirst[i];
                leafFirst.add(f.module() == null ? f.name() : f.name() + "@" + f.module() + "+0x" + Long.toHexString(f.offset()));
            }
            String values = weighed ? stack.samples() + "," + stack.weightNanos() : Long.toString(stack.samples());
            lines.add("sample\t" + values + "\tthread=" + (threaded ? rootFirst[0].name() : "-") + "\t"
                    + String.join(";", leafFirst));
        }
        return lines;
    }

    @Test
    void readsFramesModulesAddressesThreadLabelsAndValues() throws Exception {
        Profile profile = PprofWriterTest.nativeFrames();

        List<String> lines = read(profile);

        assertThat(lines.stream().filter(l -> l.startsWith("sample\t")))
                .containsExactlyInAnyOrderElementsOf(expectedSamples(profile, true))
                .anyMatch(l -> l.contains("thread=[w tid=8]\tinflate_fast@libz.so.1+0x9a40;inflate@libz.so.1+0x7000;a/B.run"));
        assertThat(lines).contains("sample_type\tsamples/count", "sample_type\tcpu/nanoseconds",
                "period_type\tcpu/nanoseconds", "period\t10000000", "default_sample_type\tcpu");
        assertThat(lines.stream().filter(l -> l.startsWith("mapping\t")))
                .hasSize(2)
                .allMatch(l -> l.matches("mapping\tlib[zc]\\.so\\.[16]\tstart=[0-9a-f]+\tlimit=[0-9a-f]+\tfile_offset=0"
                        + "\tbuild_id=\thas_functions=true"));
    }

    @Test
    void readsJavaSourceFilesAndTheLinesEachSampleRan() throws Exception {
        Profile profile = JavaLineNumbersTest.sampledAtLines();

        List<String> lines = read(profile);

        assertThat(lines.stream().filter(l -> l.startsWith("sample\t"))).containsExactlyInAnyOrder(
                "sample\t5,50000000\tthread=[main tid=1]\tapp/Work.loop:app/Work.java:23;app/Main.main:app/Main.java:14",
                "sample\t3,30000000\tthread=[main tid=1]\tapp/Work.loop:app/Work.java:27;app/Main.main:app/Main.java:14",
                "sample\t2,20000000\tthread=[main tid=1]\tmemcpy@libc.so.6+0x40;app/Work.loop:app/Work.java:27;"
                        + "app/Main.main:app/Main.java:14");
    }

    @Test
    void readsACountsOnlyProfileAsSampleCounts() throws Exception {
        Profile counts = new CollapsedReader().read(new ByteArrayInputStream(
                "[main tid=1];a;b 3\nc;d 2\n".getBytes(StandardCharsets.UTF_8)), w -> { });

        List<String> lines = read(counts);

        assertThat(lines.stream().filter(l -> l.startsWith("sample\t")))
                .containsExactlyInAnyOrderElementsOf(expectedSamples(counts, false));
        assertThat(lines).contains("sample_type\tsamples/count", "period_type\tsamples/count", "period\t1",
                "default_sample_type\tsamples");
        assertThat(lines).noneMatch(l -> l.startsWith("sample_type\tunknown"));
    }
}
