package io.mixflame.report;

import static io.mixflame.report.TestProfiles.jit;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Location;
import io.opentelemetry.proto.profiles.v1development.Mapping;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The OTLP profiles written, decoded by OpenTelemetry's generated classes ({@link OtlpMessages}). */
class OtlpWriterTest {
    private static final NativeModule JAVA = new NativeModule("java", "/usr/lib/jvm/jdk-17/bin/java", "0a1b2c");
    private static final NativeModule LIBZ = new NativeModule("libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1",
            "f00dfeed");
    private static final OtlpResource RESOURCE = new OtlpResource("checkout", Map.of("deployment.environment", "prod"));

    private static ExportProfilesServiceRequest write(List<Profile> profiles) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new OtlpWriter(RESOURCE).write(profiles, out);
        ExportProfilesServiceRequest request = OtlpMessages.parse(out.toByteArray());
        assertThat(OtlpMessages.problems(request)).as("problems of the message").isEmpty();
        return request;
    }

    private static Profile cpu() {
        ProfileInfo info = new ProfileInfo("perf", "cpu", 10_000_000L, 1_700_000_000_000L, 5_000_000_000L,
                List.of("walker: 12 us p50"), List.of(JAVA, LIBZ));
        return TestProfiles.with(info)
                .add(5, Frame.thread("main", 1), Frame.label("endpoint", "/checkout"), jit("a/Shop.checkout"),
                        Frame.nativeCode("deflate", "libz.so.1", 0x7000))
                .add(3, Frame.thread("worker-1", 2), jit("a/Shop.search"), new Frame("do_idle", FrameType.KERNEL))
                .add(2, jit("a/Shop.search"), Frame.UNKNOWN)
                .build();
    }

    @Test
    void writesACpuProfilePerValueKindWithStacksThreadsAndLabels() throws IOException {
        ExportProfilesServiceRequest request = write(List.of(cpu()));

        assertThat(OtlpMessages.sampleTypes(request)).containsExactly("samples/count", "cpu/nanoseconds");
        assertThat(OtlpMessages.stacks(request, "samples/count")).containsOnly(
                Map.entry("[main];a/Shop.checkout;deflate", 5L),
                Map.entry("[worker-1];a/Shop.search;do_idle", 3L),
                Map.entry("a/Shop.search;[unknown]", 2L));
        assertThat(OtlpMessages.stacks(request, "cpu/nanoseconds")).containsEntry("[main];a/Shop.checkout;deflate",
                50_000_000L);
        List<Map<String, String>> attributes = OtlpMessages.sampleAttributes(request, "samples/count");
        assertThat(attributes).contains(Map.of("thread.name", "main", "thread.id", "1", "endpoint", "/checkout"),
                Map.of("thread.name", "worker-1", "thread.id", "2"), Map.of());

        var profile = request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(1);
        assertThat(profile.getTimeUnixNano()).isEqualTo(1_700_000_000_000L * 1_000_000L);
        assertThat(profile.getDurationNano()).isEqualTo(5_000_000_000L);
        assertThat(profile.getPeriod()).isEqualTo(10_000_000L);
        assertThat(OtlpMessages.resourceAttributes(request)).containsEntry("service.name", "checkout")
                .containsEntry("deployment.environment", "prod");
        assertThat(request.getResourceProfiles(0).getScopeProfiles(0).getScope().getName()).isEqualTo("mixflame");
    }

    @Test
    void aSamplesSpanIsItsLinkAndItsRootsNameAnAttribute() throws IOException {
        String trace = "0af7651916cd43dd8448eb211c80319c";
        ProfileInfo info = new ProfileInfo("perf", "cpu", 10_000_000L, 0, 0, List.of(), List.of());
        Profile profile = TestProfiles.with(info)
                .add(4, Frame.thread("main", 1), Frame.label("endpoint", "/cpu"), Frame.label("span_id",
                        "b7ad6b7169203331"), Frame.label("span_name", "GET /cpu"), Frame.label("trace_id", trace),
                        jit("a/Shop.burn"))
                .add(3, Frame.thread("pool-1", 2), Frame.label("span_id", "00f067aa0ba902b7"),
                        Frame.label("trace_id", trace), jit("a/Shop.work"))
                .add(2, Frame.thread("pool-1", 2), Frame.label("span_id", "other"), jit("a/Shop.work"))
                .add(1, Frame.thread("main", 1), jit("a/Shop.idle"))
                .build();
        ExportProfilesServiceRequest request = write(List.of(profile));

        ProfilesDictionary d = request.getDictionary();
        Map<String, String> linked = new HashMap<>();
        for (var sample : request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamplesList()) {
            String stack = String.valueOf(sample.getStackIndex());
            if (sample.getLinkIndex() != 0) {
                var link = d.getLinkTable(sample.getLinkIndex());
                linked.put(stack, java.util.HexFormat.of().formatHex(link.getTraceId().toByteArray()) + "/"
                        + java.util.HexFormat.of().formatHex(link.getSpanId().toByteArray()));
            }
        }
        assertThat(linked.values()).containsExactlyInAnyOrder(trace + "/b7ad6b7169203331",
                trace + "/00f067aa0ba902b7");
        assertThat(d.getLinkTableCount()).as("the empty link and the two spans'").isEqualTo(3);
        assertThat(OtlpMessages.sampleAttributes(request, "samples/count")).contains(
                Map.of("thread.name", "main", "thread.id", "1", "endpoint", "/cpu", "span_name", "GET /cpu"),
                Map.of("thread.name", "pool-1", "thread.id", "2"),
                Map.of("thread.name", "pool-1", "thread.id", "2", "span_id", "other"))
                .noneMatch(a -> a.containsKey("trace_id"));
    }

    @Test
    void nativeFramesHaveTheirMappingWithItsBuildIdAndEveryLocationItsKind() throws IOException {
        ExportProfilesServiceRequest request = write(List.of(cpu()));
        ProfilesDictionary d = request.getDictionary();
        Map<String, String> kindOfFunction = new HashMap<>();
        Mapping deflateMapping = null;
        for (Location l : d.getLocationTableList().subList(1, d.getLocationTableCount())) {
            String name = d.getStringTable(d.getFunctionTable(l.getLines(0).getFunctionIndex()).getNameStrindex());
            String kind = null;
            for (int a : l.getAttributeIndicesList()) {
                if (d.getStringTable(d.getAttributeTable(a).getKeyStrindex()).equals("profile.frame.type")) {
                    kind = d.getAttributeTable(a).getValue().getStringValue();
                }
            }
            kindOfFunction.put(name, kind);
            if (name.equals("deflate")) {
                deflateMapping = d.getMappingTable(l.getMappingIndex());
                assertThat(l.getAddress()).isBetween(deflateMapping.getMemoryStart(), deflateMapping.getMemoryLimit());
            }
        }
        assertThat(kindOfFunction).containsEntry("deflate", "native").containsEntry("do_idle", "kernel")
                .containsEntry("a/Shop.checkout", "jvm").containsEntry("[unknown]", null);
        assertThat(deflateMapping).isNotNull();
        assertThat(d.getStringTable(deflateMapping.getFilenameStrindex()))
                .isEqualTo("/usr/lib/x86_64-linux-gnu/libz.so.1");
        List<String> mappingAttributes = new ArrayList<>();
        for (int a : deflateMapping.getAttributeIndicesList()) {
            mappingAttributes.add(d.getStringTable(d.getAttributeTable(a).getKeyStrindex()) + "="
                    + d.getAttributeTable(a).getValue().getStringValue());
        }
        assertThat(mappingAttributes).containsExactly("process.executable.build_id.gnu=f00dfeed");
    }

    @Test
    void allocationAndLockProfilesShareOneDictionaryWithTheCpuProfile() throws IOException {
        ProfileInfo allocInfo = new ProfileInfo("jfr", ProfileInfo.ALLOC, 524_288, 1_700_000_000_000L,
                5_000_000_000L, List.of());
        Profile alloc = TestProfiles.with(allocInfo)
                .add(4, Frame.thread("main", 1), jit("a/Shop.checkout"), new Frame("byte[]", FrameType.CLASS))
                .build();
        ProfileInfo lockInfo = new ProfileInfo("jfr", ProfileInfo.LOCK, 10_000, 1_700_000_000_000L,
                5_000_000_000L, List.of());
        Profile lock = TestProfiles.with(lockInfo)
                .add(2, Frame.thread("main", 1), jit("a/Shop.checkout"), new Frame("java.lang.Object", FrameType.CLASS))
                .build();

        ExportProfilesServiceRequest request = write(List.of(cpu(), alloc, lock));

        assertThat(OtlpMessages.sampleTypes(request)).containsExactly("samples/count", "cpu/nanoseconds",
                "alloc_objects/count", "alloc_space/bytes", "contentions/count", "delay/nanoseconds");
        assertThat(OtlpMessages.stacks(request, "alloc_objects/count"))
                .containsOnly(Map.entry("[main];a/Shop.checkout;byte[]", 4L));
        assertThat(OtlpMessages.stacks(request, "alloc_space/bytes"))
                .containsOnly(Map.entry("[main];a/Shop.checkout;byte[]", 4L * 524_288));
        assertThat(OtlpMessages.stacks(request, "contentions/count"))
                .containsOnly(Map.entry("[main];a/Shop.checkout;java.lang.Object", 2L));
        // One function for a/Shop.checkout, whichever profile named it first.
        ProfilesDictionary d = request.getDictionary();
        long checkouts = d.getFunctionTableList().stream()
                .filter(f -> d.getStringTable(f.getNameStrindex()).equals("a/Shop.checkout")).count();
        assertThat(checkouts).isEqualTo(1);
    }

    @Test
    void aWallProfileHasWallTimeBesideItsCount() throws IOException {
        ProfileInfo info = new ProfileInfo("wall", "wall", 20_000_000L, 1_700_000_000_000L, 5_000_000_000L,
                List.of("ticks: 250 of 250"));
        Profile wall = TestProfiles.with(info)
                .add(7, Frame.thread("sleeper", 3), jit("java/lang/Thread.sleep"), new Frame("[blocked in futex]",
                        FrameType.MARKER))
                .build();
        ExportProfilesServiceRequest request = write(List.of(wall));
        assertThat(OtlpMessages.sampleTypes(request)).containsExactly("samples/count", "wall/nanoseconds");
        assertThat(OtlpMessages.stacks(request, "wall/nanoseconds"))
                .containsOnly(Map.entry("[sleeper];java/lang/Thread.sleep;[blocked in futex]", 7 * 20_000_000L));
        var profile = request.getResourceProfiles(0).getScopeProfiles(0).getProfiles(1);
        ProfilesDictionary d = request.getDictionary();
        assertThat(d.getStringTable(profile.getPeriodType().getTypeStrindex())).isEqualTo("wall");
        assertThat(profile.getPeriod()).isEqualTo(20_000_000L);
    }

    @Test
    void hostileNamesAreCarriedAsDataAndTheMessageStaysWellFormed() throws IOException {
        Profile hostile = HostileNames.profile();
        ExportProfilesServiceRequest request = write(List.of(hostile));
        Map<String, Long> stacks = OtlpMessages.stacks(request, "samples/count");
        assertThat(stacks).containsEntry("[" + HostileNames.BREAKOUT + "];app/X.<init>;x" + HostileNames.BREAKOUT, 5L);
        assertThat(stacks.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(hostile.totalSamples());
    }

    @Test
    void anEmptyProfileIsAValidMessage() throws IOException {
        Profile empty = Profile.empty(TestProfiles.JFR_CPU);
        ExportProfilesServiceRequest request = write(List.of(empty));
        assertThat(OtlpMessages.sampleTypes(request)).containsExactly("samples/count", "cpu/nanoseconds");
        assertThat(OtlpMessages.stacks(request, "samples/count")).isEmpty();
    }

    @Test
    void theChecksFindAMessageThatBreaksTheLayout() throws IOException {
        ExportProfilesServiceRequest good = write(List.of(cpu()));
        ProfilesDictionary d = good.getDictionary();

        ExportProfilesServiceRequest entryZeroUsed = good.toBuilder().setDictionary(d.toBuilder()
                .setStringTable(0, "x")).build();
        assertThat(OtlpMessages.problems(entryZeroUsed)).anyMatch(p -> p.startsWith("string_table[0]"));

        var badSample = good.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).getSamples(0).toBuilder()
                .setStackIndex(d.getStackTableCount()).build();
        ExportProfilesServiceRequest outOfRange = good.toBuilder().setResourceProfiles(0, good.getResourceProfiles(0).toBuilder()
                .setScopeProfiles(0, good.getResourceProfiles(0).getScopeProfiles(0).toBuilder()
                        .setProfiles(0, good.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0).toBuilder()
                                .setSamples(0, badSample)))).build();
        assertThat(OtlpMessages.problems(outOfRange)).anyMatch(p -> p.contains("stack_index"));

        byte[] withUnknown = good.toByteArray();
        byte[] extended = new byte[withUnknown.length + 2];
        System.arraycopy(withUnknown, 0, extended, 0, withUnknown.length);
        extended[withUnknown.length] = (byte) (15 << 3); // field 15, varint 1
        extended[withUnknown.length + 1] = 1;
        assertThat(OtlpMessages.problems(OtlpMessages.parse(extended))).anyMatch(p -> p.contains("unknown fields"));
    }
}
