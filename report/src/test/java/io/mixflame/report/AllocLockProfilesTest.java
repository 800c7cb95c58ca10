package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.ClassNames;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.ProfileInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.openjdk.jmc.common.IMCType;
import org.openjdk.jmc.common.item.Aggregators;
import org.openjdk.jmc.common.item.IAttribute;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.ItemFilters;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.JfrAttributes;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmc.flightrecorder.jdk.JdkAttributes;
import org.junit.jupiter.api.io.TempDir;

/** Allocation and lock profiles in the formats that know them: JFR's own event types, Go's pprof sample types. */
class AllocLockProfilesTest {
    private static final Frame THREAD = Frame.thread("worker", 7);
    private static final Frame RUN = new Frame("a/B.run", FrameType.JIT_COMPILED);
    private static final Frame PARK = new Frame("jdk/internal/misc/Unsafe.park", FrameType.JIT_COMPILED);

    @TempDir
    Path dir;

    @Test
    void classNamesAsAsyncProfilerSpellsThemBothWays() {
        for (String[] pair : new String[][] {{"[I", "int[]"}, {"[Ljava.lang.Integer;", "java.lang.Integer[]"},
                {"[[J", "long[][]"}, {"java.lang.String", "java.lang.String"}, {"[La/B$C;", "a.B$C[]"}}) {
            assertThat(ClassNames.readable(pair[0])).isEqualTo(pair[1]);
            assertThat(ClassNames.internal(pair[1])).isEqualTo(pair[0].replace('.', '/'));
        }
        assertThat(ClassNames.readable("[Ljava/lang/Integer;")).isEqualTo("java.lang.Integer[]");
    }

    @Test
    void oneRecordingHoldsCpuAllocAndLockAsTheJdksEvents() throws IOException {
        Profile cpu = profile(new ProfileInfo("perf", "cpu", 10_000_000L, 1_700_000_000_000L, 0, List.of()),
                3, 30_000_000L, THREAD, RUN);
        Profile alloc = profile(new ProfileInfo("jfr", ProfileInfo.ALLOC, 0, 1_700_000_000_000L, 0, List.of()),
                4, 4_000_000L, THREAD, RUN, new Frame("int[]", FrameType.CLASS));
        ProfileAccumulator lockAcc = new ProfileAccumulator();
        lockAcc.add(new Frame[] {THREAD, RUN, new Frame("java.lang.Object", FrameType.CLASS)}, 2, 6_000_000L);
        lockAcc.add(new Frame[] {THREAD, RUN, PARK,
                new Frame("java.util.concurrent.locks.ReentrantLock$NonfairSync", FrameType.CLASS)}, 5, 50_000_000L);
        lockAcc.add(new Frame[] {THREAD, RUN, PARK, new Frame("[no blocker]", FrameType.MARKER)}, 1, 1_000_000L);
        Profile lock = lockAcc.snapshot(new ProfileInfo("jfr", ProfileInfo.LOCK, 10_000, 1_700_000_000_000L, 0,
                List.of()));
        Path file = dir.resolve("all.jfr");
        ProfileFiles.writeJfr(List.of(cpu, alloc, lock), file, ReportOptions.DEFAULT);

        Map<String, Long> counts = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            switch (type) {
                case "jdk.ObjectAllocationSample" -> {
                    assertThat(e.getClass("objectClass").getName()).isEqualTo("[I");
                    assertThat(e.getLong("weight")).isEqualTo(1_000_000L);
                    assertThat(e.getStackTrace().getFrames().get(0).getMethod().getName()).isEqualTo("run");
                    assertThat(e.getThread().getJavaName()).isEqualTo("worker");
                }
                case "jdk.JavaMonitorEnter" -> {
                    assertThat(e.getClass("monitorClass").getName()).isEqualTo("java.lang.Object");
                    assertThat(e.getDuration().toNanos()).isEqualTo(3_000_000L);
                }
                case "jdk.ThreadPark" -> {
                    assertThat(e.getStackTrace().getFrames().get(0).getMethod().getName()).isEqualTo("park");
                    if (e.getClass("parkedClass") == null) {
                        assertThat(e.getDuration().toNanos()).as("a park without a blocker").isEqualTo(1_000_000L);
                        break;
                    }
                    assertThat(e.getClass("parkedClass").getName())
                            .isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync");
                    assertThat(e.getDuration().toNanos()).isEqualTo(10_000_000L);
                }
                default -> {
                }
            }
            counts.merge(type, 1L, Long::sum);
        }
        assertThat(counts).containsEntry("jdk.ExecutionSample", 3L).containsEntry("jdk.ObjectAllocationSample", 4L)
                .containsEntry("jdk.JavaMonitorEnter", 2L).containsEntry("jdk.ThreadPark", 6L);
    }

    @Test
    void jmcReadsTheWeightsClassesAndDurations() throws Exception {
        Profile alloc = profile(new ProfileInfo("jfr", ProfileInfo.ALLOC, 0, 1_700_000_000_000L, 0, List.of()),
                2, 4096, THREAD, RUN, new Frame("java.lang.Integer[]", FrameType.CLASS));
        Profile lock = profile(new ProfileInfo("jfr", ProfileInfo.LOCK, 0, 1_700_000_000_000L, 0, List.of()),
                2, 6_000_000L, THREAD, RUN, new Frame("java.lang.Object", FrameType.CLASS));
        Path file = dir.resolve("jmc.jfr");
        ProfileFiles.writeJfr(List.of(alloc, lock), file, ReportOptions.DEFAULT);
        IItemCollection events = JfrLoaderToolkit.loadEvents(file.toFile());

        IItemCollection allocations = events.apply(ItemFilters.type("jdk.ObjectAllocationSample"));
        assertThat(allocations.getAggregate(Aggregators.sum(JdkAttributes.SAMPLE_WEIGHT)).longValueIn(UnitLookup.BYTE))
                .isEqualTo(4096);
        assertThat(classNames(allocations, JdkAttributes.OBJECT_CLASS)).containsOnly("java.lang.Integer[]");

        IItemCollection monitors = events.apply(ItemFilters.type("jdk.JavaMonitorEnter"));
        assertThat(monitors.getAggregate(Aggregators.sum(JfrAttributes.DURATION)).longValueIn(UnitLookup.NANOSECOND))
                .isEqualTo(6_000_000L);
        assertThat(classNames(monitors, JdkAttributes.MONITOR_CLASS)).containsOnly("java.lang.Object");
    }

    private static List<String> classNames(IItemCollection events, IAttribute<IMCType> attribute) {
        List<String> names = new java.util.ArrayList<>();
        for (IItemIterable items : events) {
            IMemberAccessor<IMCType, IItem> accessor = attribute.getAccessor(items.getType());
            assertThat(accessor).as("%s of %s", attribute.getIdentifier(), items.getType().getIdentifier()).isNotNull();
            for (IItem item : items) {
                names.add(accessor.getMember(item).getFullName());
            }
        }
        return names;
    }

    @Test
    void pprofNamesTheSampleTypesAsGoDoes() throws IOException {
        Profile alloc = profile(new ProfileInfo("jfr", ProfileInfo.ALLOC, 0, 0, 0, List.of()), 2, 2048, RUN,
                new Frame("int[]", FrameType.CLASS));
        Profile lock = profile(new ProfileInfo("jfr", ProfileInfo.LOCK, 10_000, 0, 0, List.of()), 2, 2048, RUN,
                new Frame("java.lang.Object", FrameType.CLASS));
        assertThat(pprofStrings(alloc)).contains("alloc_objects", "alloc_space", "bytes", "int[]")
                .doesNotContain("nanoseconds");
        assertThat(pprofStrings(lock)).contains("contentions", "delay", "nanoseconds", "java.lang.Object");
    }

    @Test
    void totalCountsWeightsAsSamplesInCollapsed() throws IOException {
        Profile alloc = profile(new ProfileInfo("jfr", ProfileInfo.ALLOC, 0, 0, 0, List.of()), 2, 4096, RUN,
                new Frame("int[]", FrameType.CLASS));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CollapsedWriter(io.mixflame.report.FrameStyle.DEFAULT).write(alloc.weightsAsSamples(), out);
        assertThat(out.toString()).contains("a/B.run;int[] 4096");
    }

    private static Profile profile(ProfileInfo info, long samples, long weight, Frame... rootFirst) {
        ProfileAccumulator acc = new ProfileAccumulator();
        acc.add(rootFirst, samples, weight);
        return acc.snapshot(info);
    }

    /** The pprof file's bytes as text: its string table holds the sample types and the function names. */
    private String pprofStrings(Profile profile) throws IOException {
        Path file = dir.resolve("p.pb.gz");
        ProfileFiles.write(profile, file, ReportOptions.DEFAULT);
        Profile back = ProfileFiles.read(file, w -> { });
        assertThat(back.totalSamples()).isEqualTo(profile.totalSamples());
        byte[] raw = new java.util.zip.GZIPInputStream(Files.newInputStream(file)).readAllBytes();
        String text = new String(raw, java.nio.charset.StandardCharsets.ISO_8859_1);
        return text;
    }
}
