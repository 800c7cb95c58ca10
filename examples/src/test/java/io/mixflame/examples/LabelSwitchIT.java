package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.report.ProfileFiles;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Labels set through {@code mixflame-api} by the {@code labels} workload, whose thread switches between
 * {@code phase=a} (working in {@code inPhaseA}), {@code phase=b} ({@code inPhaseB}) and no label
 * ({@code outsidePhases}) every couple of milliseconds. The walker handles each sample some milliseconds after it
 * was taken, by which time the thread is often in another phase: only labels looked up at the sample's own time
 * match the code the sample shows.
 */
class LabelSwitchIT {
    private static final String WORKLOAD = "io/mixflame/examples/labels/LabelSwitchWorkload.";

    @TempDir
    Path dir;

    // The labels' record is the profiler's own memory: each label test on one JDK, in turn.
    @Test
    void samplesCarryTheLabelsInForceWhenTheyWereTakenNotWhenWalked() throws Exception {
        Path jdk = TestJdks.running();
        ProfilePeriods periods = new ProfilePeriods("samples in either phase", 3000, Duration.ofMinutes(2), 1000);
        List<Path> profiles = periods.collect(Duration.ofSeconds(5),
                p -> LabeledStacks.read(p).samples(s -> s.has("inPhaseA") || s.has("inPhaseB")),
                (i, length) -> run(jdk, "labels=api,interval=1ms,file=" + dir.resolve("switch-" + i + ".collapsed"),
                        dir.resolve("switch-" + i + ".collapsed"), length, false)).profiles();
        LabeledStacks stacks = LabeledStacks.read(profiles);

        long a = stacks.samples(s -> s.has(WORKLOAD + "inPhaseA"));
        long b = stacks.samples(s -> s.has(WORKLOAD + "inPhaseB"));
        long outside = stacks.samples(s -> s.has(WORKLOAD + "outsidePhases"));
        long wrong = stacks.samples(s -> s.has(WORKLOAD + "inPhaseA") && !s.labels().equals(List.of("[phase=a]")))
                + stacks.samples(s -> s.has(WORKLOAD + "inPhaseB") && !s.labels().equals(List.of("[phase=b]")))
                + stacks.samples(s -> s.has(WORKLOAD + "outsidePhases") && !s.labels().isEmpty());
        assertThat(a).as("samples in phase a").isPositive();
        assertThat(b).as("samples in phase b").isPositive();
        assertThat(outside).as("samples between the phases").isPositive();
        // A sample's time is the kernel's, of the moment it interrupted the thread, on the clock of the JVM's
        // nanoTime that stamps each change: none should be wrong. Labelled when walked instead, about half would be.
        assertThat(wrong).as("of %d samples in a phase or between, those whose labels are not the phase's", a + b
                + outside).isLessThanOrEqualTo((a + b + outside) / 1000);
    }

    /**
     * The helper engine samples this JVM from another process, which reads the label log through the JVM's memory and
     * marks each sample with the set in force at its capture.
     */
    @Test
    void aHelperProcessReadsTheLabelsFromOutside() throws Exception {
        Path out = dir.resolve("helper.collapsed");
        run(Path.of(System.getProperty("java.home")), "labels=api,engine=helper,interval=1ms,file=" + out, out,
                Duration.ofSeconds(5), false);
        assertEveryPhaseLabelled(LabeledStacks.read(out));
    }

    /** {@code launch} has no instrumentation: the bridge sits in a loader above the application's. */
    @Test
    void launchRecordsTheApisLabelsWithoutInstrumentation() throws Exception {
        Path out = dir.resolve("launch.collapsed");
        try (ChildJvm app = ChildJvm.start(Path.of(System.getProperty("java.home")), dir, List.of("-jar",
                BuiltJars.agent().toString(), "launch", "start,labels=api,interval=1ms,file=" + out, "--", "-cp",
                BuiltJars.examples().toString(), "io.mixflame.examples.Examples", "labels", "--seconds", "5"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
            assertThat(app.stdout()).contains("recording true");
        }
        assertEveryPhaseLabelled(LabeledStacks.read(out));
    }

    /**
     * Allocation samples (JFR's, read a second or so after they were taken) carry the labels of their time too,
     * mapped onto the clock label changes are stamped with by a mark of the profiler's own in the event stream. The
     * phases last some 40 ms here: a thread's log keeps its last 256 changes, which must reach back to the events'
     * times; and the mapping is exact only once the first mark is read, about a millisecond before.
     */
    @Test
    void allocationSamplesCarryTheLabelsOfTheirTime() throws Exception {
        Path jdk = TestJdks.newest();
        Path out = dir.resolve("alloc.collapsed");
        // With traces asked for where there is no OpenTelemetry: nothing is woven (not even the JDK's virtual threads),
        // and the labels are as they are without.
        List<String> args = List.of("-javaagent:" + BuiltJars.agent() + "=start,labels=api,traces,event=alloc,file=" + out,
                "-jar", BuiltJars.examples().toString(), "labels", "--longer", "20", "--seconds", "8");
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
        }
        assertThat(java.nio.file.Files.readString(out)).as("the note of traces without OpenTelemetry")
                .contains("# note: traces: 0 spans made current, 0 context classes woven");
        LabeledStacks stacks = LabeledStacks.read(out);
        long a = stacks.samples(s -> s.has(WORKLOAD + "inPhaseA"));
        long b = stacks.samples(s -> s.has(WORKLOAD + "inPhaseB"));
        long right = stacks.samples(s -> s.has(WORKLOAD + "inPhaseA") && s.labels().equals(List.of("[phase=a]")))
                + stacks.samples(s -> s.has(WORKLOAD + "inPhaseB") && s.labels().equals(List.of("[phase=b]")));
        assertThat(a + b).as("allocation samples in a phase").isGreaterThan(100);
        // Measured 97-98%; labelled when read, a third would be (three label states in turn).
        assertThat((double) right / (a + b)).as("of %d allocation samples in a phase, the share with its label", a + b)
                .isGreaterThan(0.90);
    }

    private static void assertEveryPhaseLabelled(LabeledStacks stacks) {
        long a = stacks.samples(s -> s.has(WORKLOAD + "inPhaseA"));
        long b = stacks.samples(s -> s.has(WORKLOAD + "inPhaseB"));
        assertThat(a).as("samples in phase a").isGreaterThan(100);
        assertThat(b).as("samples in phase b").isGreaterThan(100);
        java.util.function.Predicate<LabeledStacks.Stack> unlabelled = s ->
                s.has(WORKLOAD + "inPhaseA") && !s.labels().equals(List.of("[phase=a]"))
                || s.has(WORKLOAD + "inPhaseB") && !s.labels().equals(List.of("[phase=b]"));
        assertThat(stacks.samples(unlabelled)).as("of %d samples in a phase, those without its label, among them:%s",
                a + b, stacks.describe(unlabelled)).isLessThanOrEqualTo((a + b) / 1000);
    }

    @Test
    void labelsAreSampleLabelsInPprofAndAFloodOfValuesStaysBounded() throws Exception {
        Path jdk = TestJdks.running();
        Path pprof = dir.resolve("flood.pb.gz");
        run(jdk, "labels=api,interval=1ms,file=" + pprof, pprof, Duration.ofSeconds(5), true);

        Profile profile = ProfileFiles.read(pprof, warning -> { });
        Set<String> tenants = new HashSet<>();
        long phaseSamples = 0;
        long other = 0;
        for (Profile.Stack s : profile.stacks()) {
            Frame[] frames = profile.framesOf(s);
            for (Frame f : frames) {
                if (f.type() == FrameType.LABEL && f.labelKey().equals("tenant")) {
                    tenants.add(f.labelValue());
                }
                if (f.type() == FrameType.LABEL && f.labelKey().equals("phase")) {
                    phaseSamples += s.samples();
                }
                if (f.name().equals("[labels=other]")) {
                    other += s.samples();
                }
            }
        }
        assertThat(phaseSamples).as("samples with a phase label in the pprof file").isPositive();
        // The flood passes the bound on distinct sets within its first milliseconds: few of its tenants, if any,
        // have samples of their own, and the rest are counted together.
        assertThat(tenants).as("distinct tenants kept").hasSizeLessThanOrEqualTo(1024);
        assertThat(other).as("samples of the tenants past the bound").isPositive();
        // The note names them as their frame does.
        assertThat(profile.info().notes()).as("the profile's notes")
                .anyMatch(n -> n.contains("was reached: the rest are [labels=other]"));
        assertThat(Files.size(pprof)).as("the file's size").isLessThan(4L << 20);
    }

    private Path run(Path jdk, String options, Path out, Duration length, boolean flood) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("-javaagent:" + BuiltJars.agent() + "=start," + options,
                "-jar", BuiltJars.examples().toString(), "labels", "--seconds", Long.toString(length.toSeconds())));
        if (flood) {
            args.add("--flood");
        }
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            assertThat(app.awaitExit(length.plus(Duration.ofSeconds(120)))).as(app.stderr()).isZero();
            assertThat(app.stdout()).contains("recording true");
        }
        return out;
    }
}
