package io.mixflame.examples.harness;

import static io.mixflame.examples.harness.ReportNumbers.orDash;

import java.io.IOException;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The JNI library study's table: per profiler, what its profiles say of RocksDB's stacks (pooled over the runs) and
 * what the runs cost (medians over the runs).
 */
final class JniLibrarySection {
    private static final String WORKLOAD = "RocksWorkload.";

    private final JniLibraryStudy study;
    private final Map<Profiler, Figures> figures = new EnumMap<>(Profiler.class);

    /** Counts pooled over one profiler's profiles. */
    private static final class Figures {
        long samples;
        long unknown;
        long addressed;
        final Set<String> addressNames = new HashSet<>();
        long callerSamples;
        long callerKept;
        long ownThreads;
        final Measurements roundsPerSecond = new Measurements();
        final Measurements peakRssKb = new Measurements();
        final Measurements liveHeapKb = new Measurements();
        final Measurements perSampleP50 = new Measurements();
        final Measurements perSampleP99 = new Measurements();
    }

    JniLibrarySection(WorkloadRunner runner, JniLibraryStudy study) throws IOException {
        this.study = study;
        for (Profiler p : JniLibraryStudy.PROFILERS) {
            Figures f = new Figures();
            figures.put(p, f);
            for (ChildRun run : study.runs().getOrDefault(p, List.of())) {
                if (!run.succeeded()) {
                    continue;
                }
                WorkloadOutput.roundsPerSecond("rocks", run.stdout()).ifPresent(f.roundsPerSecond::add);
                WorkloadOutput.peakRssKb(run.stdout()).ifPresent(f.peakRssKb::add);
                WorkloadOutput.liveHeapKb(run.stdout()).ifPresent(f.liveHeapKb::add);
                CollapsedProfile profile = runner.profile(run);
                if (profile != null) {
                    count(profile, f);
                }
            }
        }
    }

    private static void count(CollapsedProfile profile, Figures f) {
        Set<String> callers = new HashSet<>();
        for (CollapsedProfile.Stack s : profile.stacks()) {
            if (s.frames().stream().anyMatch(x -> x.contains(WORKLOAD))) {
                callers.add(s.frames().get(0));
            }
        }
        for (CollapsedProfile.Stack s : profile.stacks()) {
            List<String> frames = s.frames();
            f.samples += s.count();
            if (frames.stream().anyMatch(x -> x.startsWith("[unknown") || x.startsWith("[break_"))) {
                f.unknown += s.count();
            }
            List<String> addressed = frames.stream().filter(JniLibrarySection::namedWithoutFunction).toList();
            if (!addressed.isEmpty()) {
                f.addressed += s.count();
                f.addressNames.addAll(addressed);
            }
            if (frames.get(0).startsWith("[rocksdb:")) {
                f.ownThreads += s.count();
            }
            if (callers.contains(frames.get(0)) && frames.stream().anyMatch(JniLibrarySection::inLibrary)) {
                f.callerSamples += s.count();
                if (frames.stream().anyMatch(x -> x.contains(WORKLOAD))) {
                    f.callerKept += s.count();
                }
            }
        }
        for (String note : profile.notes()) {
            double[] warm = MixflameCostSection.warmPerSample(note);
            double[] all = warm != null ? warm : MixflameCostSection.perSample(note);
            if (all != null) {
                f.perSampleP50.add(all[0]);
                f.perSampleP99.add(all[1]);
            }
        }
    }

    /** Code of the library named by its module alone or with an offset: mixflame's {@code [lib+0x…]}, a bare path. */
    private static boolean namedWithoutFunction(String frame) {
        String name = FrameKind.name(frame);
        return name.contains("rocksdbjni") && !name.contains("::") && !name.contains("(")
                && !name.startsWith("Java_");
    }

    private static boolean inLibrary(String frame) {
        String name = FrameKind.name(frame);
        return name.startsWith("rocksdb::") || name.startsWith("Java_org_rocksdb_") || name.contains("rocksdbjni");
    }

    /** The table. */
    String table(Map<Profiler, String> labels) {
        MarkdownTable t = new MarkdownTable("profiler", "rounds/s (vs none)", "peak RSS", "live heap at exit",
                "samples", "[unknown]",
                "samples with a library frame named without a function (distinct names)",
                "calling thread's library samples with the Java caller", "RocksDB's own threads",
                "mixflame per sample p50 / p99");
        OptionalDouble none = figures.get(Profiler.NONE).roundsPerSecond.median();
        for (Profiler p : JniLibraryStudy.PROFILERS) {
            Figures f = figures.get(p);
            OptionalDouble rounds = f.roundsPerSecond.median();
            String vsNone = p == Profiler.NONE ? "" : " (" + orDash(ReportNumbers.divide(rounds, none),
                    ReportNumbers::ratio) + ")";
            boolean profiled = p != Profiler.NONE;
            t.row(labels.getOrDefault(p, p.label()), orDash(rounds, ReportNumbers::number) + vsNone,
                    orDash(f.peakRssKb.median(), ReportNumbers::megabytesOfKb),
                    orDash(f.liveHeapKb.median(), ReportNumbers::tenthsOfMegabyteOfKb),
                    profiled ? Long.toString(f.samples) : "",
                    profiled ? share(f.unknown, f.samples) : "",
                    profiled ? share(f.addressed, f.samples) + " (" + f.addressNames.size() + ")" : "",
                    profiled ? share(f.callerKept, f.callerSamples) + " of " + f.callerSamples : "",
                    profiled ? share(f.ownThreads, f.samples) : "",
                    p == Profiler.MIXFLAME ? orDash(f.perSampleP50.median(), ReportNumbers::number) + " / "
                            + orDash(f.perSampleP99.median(), ReportNumbers::number) + " µs" : "");
        }
        return t.toString();
    }

    /** The runs' length and number, for the text around the table. */
    JniLibraryStudy study() {
        return study;
    }

    private static String share(long part, long whole) {
        return whole == 0 ? "—" : String.format(Locale.ROOT, "%.2f%%", 100.0 * part / whole);
    }
}
