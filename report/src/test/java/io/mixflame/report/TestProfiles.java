package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import one.convert.Arguments;
import one.convert.FlameGraph;

/** Builds small profiles for tests and turns profiles and flame graph pages into comparable maps. */
public final class TestProfiles {

    /** A cpu profile by the jfr engine at 10ms, with a start and a duration. */
    public static final ProfileInfo JFR_CPU =
            new ProfileInfo("jfr", "cpu", 10_000_000L, 1_700_000_000_000L, 5_000_000_000L, List.of());

    private final ProfileAccumulator acc = new ProfileAccumulator();
    private final ProfileInfo info;

    private TestProfiles(ProfileInfo info) {
        this.info = info;
    }

    /** Collapsed stacks of every Java kind, a kernel frame, a thread root and a marker root, with mixflame's header. */
    public static final String ROUND_TRIP_COLLAPSED = "# mixflame engine=perf event=cpu interval=1ms samples=9 0\n"
            + "[main tid=1];java/lang/Thread.run_[0];a/B.c_[j];libfoo_func 4\n"
            + "a/B.c_[i];do_idle_[k] 3\n"
            + "[unknown];x/Y.z_[1] 2\n";

    /** A builder of a profile with this info. */
    public static TestProfiles with(ProfileInfo info) {
        return new TestProfiles(info);
    }

    /** Adds a stack, root first, weighted samples × the info's interval. */
    public TestProfiles add(long samples, Frame... rootFirst) {
        acc.add(rootFirst, samples, samples * info.intervalNanos());
        return this;
    }

    /** Adds a stack of JIT-compiled Java frames given as {@code a;b;c}. */
    public TestProfiles addJava(long samples, String rootFirst) {
        return add(samples, Arrays.stream(rootFirst.split(";")).map(TestProfiles::jit).toArray(Frame[]::new));
    }

    public Profile build() {
        return acc.snapshot(info);
    }

    public static Frame jit(String name) {
        return new Frame(name, FrameType.JIT_COMPILED);
    }

    public static Frame frame(String name, FrameType type) {
        return new Frame(name, type);
    }

    /** A filter of at most one include and one exclude pattern; null for none. */
    public static FrameFilter filter(String include, String exclude) {
        return new FrameFilter(include == null ? List.of() : List.of(NamePattern.parse(include)),
                exclude == null ? List.of() : List.of(NamePattern.parse(exclude)));
    }

    /** Java frames with their kind's suffix, so that stacks compared as text also compare frame types. */
    public static final FrameStyle ANNOTATED = new FrameStyle(true, false, false);

    /** Each stack as its collapsed text (with suffixes), mapped to its samples. */
    public static Map<String, Long> collapsedStacks(Profile profile) {
        Map<String, Long> result = new TreeMap<>();
        for (Profile.Stack s : profile.stacks()) {
            List<String> names = new ArrayList<>();
            for (Frame f : profile.framesOf(s)) {
                names.add(CollapsedFrames.format(f, ANNOTATED));
            }
            result.merge(String.join(";", names), s.samples(), Long::sum);
        }
        return result;
    }

    /**
     * Stacks under labels: two threads, labels after the thread frame, in key order; a labelled stack without a
     * thread; a stack without labels. 15 samples.
     */
    public static Profile labelled() {
        Frame main = Frame.thread("main", 1);
        Frame checkout = Frame.label("endpoint", "/checkout");
        Frame search = Frame.label("endpoint", "/search");
        Frame acme = Frame.label("tenant", "acme");
        return with(JFR_CPU)
                .add(5, main, checkout, acme, jit("a/Shop.checkout"), jit("a/Db.query"))
                .add(3, main, search, acme, jit("a/Shop.search"), jit("a/Db.query"))
                .add(2, Frame.thread("worker", 2), checkout, jit("a/Shop.checkout"))
                .add(1, search, jit("a/Shop.search"))
                .add(4, main, jit("a/Idle.run"))
                .build();
    }

    /**
     * Each stack as {@code TYPE:name;TYPE:name}, mapped to its samples: a label read back as a marker of the same name
     * shows, where {@link #collapsedStacks} would not tell them apart.
     */
    public static Map<String, Long> typedStacks(Profile profile) {
        Map<String, Long> result = new TreeMap<>();
        for (Profile.Stack s : profile.stacks()) {
            List<String> names = new ArrayList<>();
            for (Frame f : profile.framesOf(s)) {
                names.add(f.type() + ":" + f.name());
            }
            result.merge(String.join(";", names), s.samples(), Long::sum);
        }
        return result;
    }

    /** Each stack as its list of frames, mapped to its samples. */
    public static Map<List<Frame>, Long> frameStacks(Profile profile) {
        Map<List<Frame>, Long> result = new HashMap<>();
        for (Profile.Stack s : profile.stacks()) {
            result.merge(List.of(profile.framesOf(s)), s.samples(), Long::sum);
        }
        return result;
    }

    /** Parses a page with async-profiler's own FlameGraph.parseHtml; each stack line mapped to its count. */
    public static Map<String, Long> parseHtml(String html) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        FlameGraph graph = new FlameGraph(args);
        graph.parseHtml(new StringReader(html));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        graph.dump(out);
        Map<String, Long> result = new TreeMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                int space = line.lastIndexOf(' ');
                result.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
            }
        }
        return result;
    }
}
