package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.gotool.GoPprof;
import io.mixflame.examples.gotool.GoToolchain;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jmc.common.IMCFrame;
import org.openjdk.jmc.common.IMCStackTrace;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;

/**
 * Allocation and lock profiles of the {@code alloc} and {@code lock} workloads, whose truths are known: each of two
 * threads allocates {@code int[]} and {@code Integer[]} in equal measure; threads wait on one monitor and one
 * {@code ReentrantLock} for times they measure themselves. Then one recording of cpu, alloc and lock, read by the
 * JDK's {@code jfr} tool, JMC's parser and async-profiler's converter, and the pprof files of alloc and lock read by
 * Go's pprof.
 */
class AllocLockIT {
    private static final String WORKLOADS = "io/mixflame/examples/";
    private static final String MONITOR_STACK_END = WORKLOADS + "lock/LockWorkload.enterMonitor;java.lang.Object";
    private static final String REENTRANT = WORKLOADS + "lock/LockWorkload.takeReentrantLock;";
    private static final String REENTRANT_CLASS = "java.util.concurrent.locks.ReentrantLock$NonfairSync";

    @TempDir
    Path dir;

    /** On the newest JDK: the oldest's allocation samples are read in the recording and pprof tests below. */
    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#newestOnly")
    void eachThreadsAllocatingMethodHasBothArrayTypesHalfEach(Path jdk) throws Exception {
        // Per thread, enough samples for a margin of 10 points at four standard errors.
        long needed = CollapsedShares.samplesForMargin(0.10);
        ProfilePeriods periods = new ProfilePeriods("allocation samples of the thread with fewer", needed,
                Duration.ofMinutes(3), 150);
        List<Path> profiles = periods.collect(Duration.ofSeconds(8),
                p -> Math.min(samplesIn(stacks(List.of(p)), "allocateFirst"),
                        samplesIn(stacks(List.of(p)), "allocateSecond")),
                (i, length) -> {
                    Path out = dir.resolve("alloc-" + i + ".collapsed");
                    run(jdk, "event=alloc,threads,file=" + out, "alloc", length);
                    return out;
                }).profiles();
        Map<String, Long> stacks = stacks(profiles);
        for (String thread : List.of("First", "Second")) {
            String method = WORKLOADS + "alloc/AllocWorkload.allocate" + thread;
            long ints = 0;
            long integers = 0;
            long all = 0;
            for (Map.Entry<String, Long> e : stacks.entrySet()) {
                if (!e.getKey().contains(method + ";")) {
                    continue;
                }
                assertThat(e.getKey()).as("the thread root").startsWith("[alloc-" + thread.toLowerCase() + " tid=");
                all += e.getValue();
                if (e.getKey().endsWith(method + ";int[]")) {
                    ints += e.getValue();
                } else if (e.getKey().endsWith(method + ";java.lang.Integer[]")) {
                    integers += e.getValue();
                }
            }
            double n = ints + integers;
            System.out.printf("%s on %s: %d int[], %d Integer[] of %d samples%n", method, jdk, ints, integers, all);
            assertThat(n).as("samples of %s with an array type as leaf, of %d", method, all).isEqualTo((double) all);
            assertThat(ints / n).as("int[] share of %s", method).isCloseTo(0.5, CollapsedShares.chanceMargin(0.5, n))
                    .isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.10));
        }
    }

    @ParameterizedTest
    @MethodSource("io.mixflame.testsupport.TestJdks#runningOnly")
    void waitsOnTheMonitorAndTheLockAreWhatTheThreadsMeasured(Path jdk) throws Exception {
        Path out = dir.resolve("lock.collapsed");
        String stdout = run(jdk, "event=lock,total,threads,file=" + out, "lock", Duration.ofSeconds(5));
        long monitorMeasured = number(stdout, "lock: monitor waited (\\d+) ns");
        long reentrantMeasured = number(stdout, "lock: reentrant waited (\\d+) ns");
        long monitor = 0;
        long reentrant = 0;
        for (Map.Entry<String, Long> e : stacks(List.of(out)).entrySet()) {
            if (e.getKey().endsWith(MONITOR_STACK_END)) {
                assertThat(e.getKey()).startsWith("[lock-monitor-");
                monitor += e.getValue();
            } else if (e.getKey().contains(REENTRANT) && e.getKey().endsWith(";" + REENTRANT_CLASS)) {
                assertThat(e.getKey()).startsWith("[lock-reentrant-");
                reentrant += e.getValue();
            }
        }
        System.out.printf("%s: monitor: %d ns profiled, %d measured; ReentrantLock: %d ns profiled, %d measured%n",
                jdk, monitor, monitorMeasured, reentrant, reentrantMeasured);
        assertThat((double) monitor).as("ns waited on the monitor").isCloseTo(monitorMeasured,
                org.assertj.core.data.Percentage.withPercentage(20));
        assertThat((double) reentrant).as("ns waited on the ReentrantLock").isCloseTo(reentrantMeasured,
                org.assertj.core.data.Percentage.withPercentage(20));
    }

    // The readers are the subject; both JDKs' events are checked above.
    @Test
    void oneRecordingOfCpuAllocAndLockReadsInEveryReader() throws Exception {
        Path jdk = TestJdks.newest();
        Path jfr = dir.resolve("all.jfr");
        run(jdk, "event=cpu,alloc,lock,threads,file=" + jfr, "lock", Duration.ofSeconds(4));

        // The JDK's jfr tool.
        String summary = jfrTool(jdk, "summary", jfr.toString());
        for (String type : List.of("jdk.ExecutionSample", "jdk.ObjectAllocationSample", "jdk.JavaMonitorEnter",
                "jdk.ThreadPark")) {
            assertThat(summary).as(summary).containsPattern("(?m)^\\s*" + type.replace(".", "\\.") + "\\s+[1-9]");
        }
        assertThat(jfrTool(jdk, "print", "--stack-depth", "64", "--events", "jdk.ObjectAllocationSample", jfr.toString()))
                .contains("objectClass = long[]").contains("io.mixflame.examples.lock.LockWorkload.hold()");
        assertThat(jfrTool(jdk, "print", "--stack-depth", "64", "--events", "jdk.JavaMonitorEnter", jfr.toString()))
                .contains("monitorClass = java.lang.Object").contains("LockWorkload.enterMonitor()");
        assertThat(jfrTool(jdk, "print", "--stack-depth", "64", "--events", "jdk.ThreadPark", jfr.toString()))
                .contains("parkedClass = " + REENTRANT_CLASS).contains("LockWorkload.takeReentrantLock()");

        // JMC's parser.
        IItemCollection events = JfrLoaderToolkit.loadEvents(jfr.toFile());
        assertThat(jmcStacks(events, "jdk.ObjectAllocationSample")).anyMatch(s -> s.contains("LockWorkload.hold"));
        assertThat(jmcStacks(events, "jdk.JavaMonitorEnter")).anyMatch(s -> s.contains("LockWorkload.enterMonitor"));
        assertThat(jmcStacks(events, "jdk.ThreadPark")).anyMatch(s -> s.contains("LockWorkload.takeReentrantLock"));

        // async-profiler's converter, as --alloc and --lock.
        assertThat(converted(jfr, true, false).keySet())
                .anyMatch(s -> s.contains(WORKLOADS + "lock/LockWorkload.hold") && s.endsWith(";long[]"));
        assertThat(converted(jfr, false, true).keySet())
                .anyMatch(s -> s.endsWith(MONITOR_STACK_END))
                .anyMatch(s -> s.contains(REENTRANT) && s.endsWith(";" + REENTRANT_CLASS));
    }

    @Test
    void pprofFilesOfAllocAndLockHaveGosSampleTypes() throws Exception {
        GoPprof pprof = new GoPprof(GoToolchain.require(), dir);
        Path jdk = TestJdks.all().get(0);
        run(jdk, "event=alloc,lock=10us,file=" + dir.resolve("out-%e.pb.gz"), "lock", Duration.ofSeconds(4));

        String allocs = pprof.report(dir.resolve("out-alloc.pb.gz"), "-raw");
        assertThat(allocs).as(allocs).contains("alloc_objects/count alloc_space/bytes")
                .contains("LockWorkload.hold").contains("long[]");
        String mutex = pprof.report(dir.resolve("out-lock.pb.gz"), "-raw");
        assertThat(mutex).as(mutex).contains("contentions/count delay/nanoseconds")
                .contains("LockWorkload.enterMonitor").contains(REENTRANT_CLASS);
    }

    @Test
    void withoutJfrAllocIsRefusedInOneLineAndCpuGoesOn() throws Exception {
        Path jdk = TestJdks.all().get(0);
        Path runtime = dir.resolve("no-jfr");
        Process jlink = new ProcessBuilder(jdk.resolve("bin/jlink").toString(), "--add-modules",
                "java.base,java.instrument,java.management,java.logging,jdk.unsupported", "--output",
                runtime.toString()).redirectErrorStream(true).start();
        String jlinked = new String(jlink.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(jlink.waitFor()).as(jlinked).isZero();

        Path out = dir.resolve("p-%e.collapsed");
        try (ChildJvm app = ChildJvm.start(runtime, dir, List.of("-javaagent:" + BuiltJars.agent()
                + "=start,event=cpu,alloc,file=" + out, "-jar", BuiltJars.examples().toString(), "cpu", "--seconds",
                "2"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(120))).as(app.stderr()).isZero();
            assertThat(app.stderr().lines().filter(l -> l.contains("alloc refused")))
                    .as(app.stderr()).singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                    .contains("no jdk.jfr module").contains("cpu profiling goes on");
        }
        assertThat(stacks(List.of(dir.resolve("p-cpu.collapsed"))).keySet()).as("the cpu profile")
                .anyMatch(s -> s.contains(WORKLOADS + "CpuWorkload."));
        assertThat(dir.resolve("p-alloc.collapsed")).doesNotExist();
    }

    /** Runs the workload for {@code length} with the agent started with {@code options}; returns its output. */
    private String run(Path jdk, String options, String workload, Duration length) throws Exception {
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of("-javaagent:" + BuiltJars.agent() + "=start," + options,
                "-jar", BuiltJars.examples().toString(), workload, "--seconds", Long.toString(length.toSeconds())))) {
            assertThat(app.awaitExit(length.plus(Duration.ofSeconds(110)))).as(app.stderr()).isZero();
            return app.stdout();
        }
    }

    private static long number(String text, String regex) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("output matching /%s/:\n%s", regex, text).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Collapsed stacks and their counts, several files together. */
    private static Map<String, Long> stacks(List<Path> files) throws IOException {
        Map<String, Long> stacks = new TreeMap<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    int space = line.lastIndexOf(' ');
                    stacks.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
                }
            }
        }
        return stacks;
    }

    private static long samplesIn(Map<String, Long> stacks, String method) {
        long n = 0;
        for (Map.Entry<String, Long> e : stacks.entrySet()) {
            if (e.getKey().contains("." + method + ";")) {
                n += e.getValue();
            }
        }
        return n;
    }

    private static String jfrTool(Path jdk, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(jdk.resolve("bin/jfr").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(output).isZero();
        return output;
    }

    /** Each event's stack as {@code Class.method} names, leaf first, joined by {@code ;}. */
    private static List<String> jmcStacks(IItemCollection events, String type) {
        List<String> stacks = new ArrayList<>();
        for (IItemIterable items : events.apply(ItemFilters.type(type))) {
            IMemberAccessor<IMCStackTrace, IItem> trace = JfrAttributes.EVENT_STACKTRACE.getAccessor(items.getType());
            for (IItem item : items) {
                IMCStackTrace t = trace.getMember(item);
                StringBuilder sb = new StringBuilder();
                for (IMCFrame f : t == null ? List.<IMCFrame>of() : t.getFrames()) {
                    sb.append(f.getMethod().getType().getTypeName()).append('.')
                            .append(f.getMethod().getMethodName()).append(';');
                }
                stacks.add(sb.toString());
            }
        }
        assertThat(stacks).as("%s events JMC read", type).isNotEmpty();
        return stacks;
    }

    /** async-profiler's converter's collapsed stacks of the allocation or the lock events. */
    private static Map<String, Long> converted(Path jfr, boolean alloc, boolean lock) throws IOException {
        Arguments args = new Arguments();
        args.output = "collapsed";
        args.alloc = alloc;
        args.lock = lock;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JfrToFlame converter;
        try (JfrReader reader = new JfrReader(jfr.toString())) {
            converter = new JfrToFlame(reader, args);
            converter.convert();
        }
        converter.dump(out);
        Map<String, Long> stacks = new TreeMap<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                int space = line.lastIndexOf(' ');
                // The converter marks each frame's kind (_[j], _[i], ...): the names alone are compared.
                stacks.merge(line.substring(0, space).replaceAll("_\\[.\\](;|$)", "$1"),
                        Long.parseLong(line.substring(space + 1)), Long::sum);
            }
        }
        assertThat(stacks).as("stacks the converter found").isNotEmpty();
        assertThat(stacks.keySet()).as("the profiler's own threads' waits are left out")
                .noneMatch(s -> s.contains("io/mixflame/engine/"));
        return stacks;
    }
}
