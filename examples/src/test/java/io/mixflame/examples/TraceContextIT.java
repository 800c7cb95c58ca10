package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import io.mixflame.report.OtlpMessages;
import io.mixflame.report.ProfileFiles;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code traces} beside the real OpenTelemetry Java agent, which exports its spans to a receiver of this test's own:
 * a Jetty 12 core handler (no servlets) whose {@code /inline} works on the request's thread and {@code /pooled} on an
 * executor's (virtual threads where the JDK has them), loaded by this test. The CPU samples of each endpoint's work
 * must carry the ids of the server span the agent exported for a request to that endpoint, in the OTLP output's
 * links (decoded by OpenTelemetry's own classes, every index in range) and in pprof's {@code span_id} labels; and
 * {@code labels} must name both endpoints from those spans, although mixflame weaves neither.
 */
class TraceContextIT {
    private static final Pattern PORT = Pattern.compile("^port (\\d+)", Pattern.MULTILINE);
    /** Samples of the endpoints' work the judgement needs: with all of them in spans, 95% is never missed by chance. */
    private static final int NEEDED = 300;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mixflame.testsupport.TestJdks#homes")
    void eachRequestsSamplesCarryItsServerSpanInOtlpLinksAndPprofLabels(Path jdk) throws Exception {
        boolean virtual = Runtime.Version.parse(javaVersion(jdk)).feature() >= 21;
        Map<String, Span> exported = new ConcurrentHashMap<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/v1/traces", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                for (ResourceSpans rs : ExportTraceServiceRequest.parseFrom(in.readAllBytes()).getResourceSpansList()) {
                    for (ScopeSpans ss : rs.getScopeSpansList()) {
                        for (Span span : ss.getSpansList()) {
                            exported.put(HexFormat.of().formatHex(span.getSpanId().toByteArray()), span);
                        }
                    }
                }
            }
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        Path otlp = dir.resolve("traced.otlp");
        Path pprof = dir.resolve("traced.pb.gz");
        int profilePort = freePort();
        String classPath = BuiltJars.examples() + java.io.File.pathSeparator
                + BuiltJars.examples().resolveSibling("workloads").resolve("jetty").resolve("*");
        List<String> args = new ArrayList<>(List.of(
                "-javaagent:" + BuiltJars.examples().resolveSibling("workloads").resolve("opentelemetry-javaagent.jar"),
                "-Dotel.service.name=traced", "-Dotel.traces.exporter=otlp",
                "-Dotel.exporter.otlp.protocol=http/protobuf",
                "-Dotel.exporter.otlp.traces.endpoint=http://127.0.0.1:" + receiver.getAddress().getPort()
                        + "/v1/traces",
                "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none", "-Dotel.bsp.schedule.delay=200",
                "-javaagent:" + BuiltJars.agent() + "=start,traces,labels,interval=5ms,http=127.0.0.1:" + profilePort
                        + ",file=" + otlp,
                "-cp", classPath, "io.mixflame.examples.Examples", "traced", "--seconds", "8"));
        if (virtual) {
            args.add("--virtual");
        }
        long requests;
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            app.awaitOutput("port ", Duration.ofSeconds(90));
            Matcher m = PORT.matcher(app.stdout());
            assertThat(m.find()).as(app.stdout()).isTrue();
            int port = Integer.parseInt(m.group(1));
            AtomicBoolean serving = new AtomicBoolean(true);
            AtomicLong answered = new AtomicLong();
            Thread client = new Thread(() -> load(port, serving, answered), "client");
            client.start();
            // pprof of four seconds of the load, as a scraper would take it.
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + profilePort
                    + "/debug/pprof/profile?seconds=4").toURL().openConnection();
            c.setReadTimeout(60_000);
            try (InputStream in = c.getInputStream()) {
                Files.write(pprof, in.readAllBytes());
            }
            int exit = app.awaitExit(Duration.ofSeconds(120));
            serving.set(false);
            client.join();
            requests = answered.get();
            assertThat(exit).as(app.stderr()).isZero();
            assertThat(app.stderr()).as("the application's stderr").doesNotContain("could not be woven");
        } finally {
            receiver.stop(0);
        }
        assertThat(requests).as("requests answered").isPositive();
        Map<String, String> serverSpans = new java.util.HashMap<>();
        for (Span s : exported.values()) {
            if (s.getKind() == Span.SpanKind.SPAN_KIND_SERVER) {
                serverSpans.put(HexFormat.of().formatHex(s.getTraceId().toByteArray()) + "/"
                        + HexFormat.of().formatHex(s.getSpanId().toByteArray()), path(s));
            }
        }
        assertThat(serverSpans).as("server spans exported").isNotEmpty();

        // The OTLP file: each work sample's link names a server span exported for a request to its endpoint.
        ExportProfilesServiceRequest message = OtlpMessages.parse(Files.readAllBytes(otlp));
        assertThat(OtlpMessages.problems(message)).as("problems of the OTLP message").isEmpty();
        ProfilesDictionary d = message.getDictionary();
        var cpu = message.getResourceProfiles(0).getScopeProfiles(0).getProfiles(0);
        long work = 0;
        long linked = 0;
        long named = 0;
        Map<String, Long> endpointSamples = new java.util.TreeMap<>();
        Map<String, Long> linkOutcomes = new java.util.TreeMap<>();
        for (Sample s : cpu.getSamplesList()) {
            String endpoint = workOf(d, s);
            if (endpoint == null) {
                continue;
            }
            long n = s.getValues(0);
            work += n;
            String why;
            if (s.getLinkIndex() != 0) {
                var link = d.getLinkTable(s.getLinkIndex());
                String key = HexFormat.of().formatHex(link.getTraceId().toByteArray()) + "/"
                        + HexFormat.of().formatHex(link.getSpanId().toByteArray());
                String spanPath = serverSpans.get(key);
                linked += endpoint.equals(spanPath) ? n : 0;
                why = endpoint.equals(spanPath) ? "right" : spanPath == null ? "not a server span exported"
                        : "another endpoint's";
            } else {
                why = "no link, labels=" + attribute(d, s, "labels") + ", endpoint=" + attribute(d, s, "endpoint");
            }
            linkOutcomes.merge(endpoint + ": " + why, n, Long::sum);
            String label = attribute(d, s, "endpoint");
            named += ("GET " + endpoint).equals(label) ? n : 0;
            endpointSamples.merge(String.valueOf(label), n, Long::sum);
        }
        assertThat(work).as("samples of the endpoints' work").isGreaterThanOrEqualTo(NEEDED);
        assertThat((double) linked / work).as("of %d work samples, those linked to their request's server span "
                + "(%d server spans exported): %s", work, serverSpans.size(), linkOutcomes)
                .isGreaterThanOrEqualTo(0.95);
        assertThat((double) named / work).as("of %d work samples, those labelled with their endpoint: %s", work,
                endpointSamples).isGreaterThanOrEqualTo(0.95);
        // The client asks both endpoints in turn and their work is the same: each has half of the labelled samples.
        long inline = endpointSamples.getOrDefault("GET /inline", 0L);
        long labelled = inline + endpointSamples.getOrDefault("GET /pooled", 0L);
        assertThat((double) inline / labelled).as("/inline's share of the endpoints' samples: %s", endpointSamples)
                .isCloseTo(0.5, CollapsedShares.chanceMargin(0.5, labelled))
                .isCloseTo(0.5, org.assertj.core.api.Assertions.within(0.05));

        // pprof, taken over HTTP: span_id labels of server spans exported for that endpoint's requests.
        Profile p = ProfileFiles.read(pprof, w -> { });
        Map<String, String> serverSpanPaths = new java.util.HashMap<>();
        serverSpans.forEach((k, v) -> serverSpanPaths.put(k.substring(k.indexOf('/') + 1), v));
        long pprofWork = 0;
        long pprofMatched = 0;
        for (Profile.Stack stack : p.stacks()) {
            Frame[] frames = p.framesOf(stack);
            String endpoint = null;
            String spanId = null;
            for (Frame f : frames) {
                if (f.type() == FrameType.LABEL && f.labelKey().equals("span_id")) {
                    spanId = f.labelValue();
                } else if (f.name().contains("TracedWork.inline")) {
                    endpoint = "/inline";
                } else if (f.name().contains("TracedWork.pooled")) {
                    endpoint = "/pooled";
                }
            }
            if (endpoint != null) {
                pprofWork += stack.samples();
                pprofMatched += endpoint.equals(serverSpanPaths.get(spanId)) ? stack.samples() : 0;
            }
        }
        assertThat(pprofWork).as("work samples in the pprof window").isPositive();
        assertThat((double) pprofMatched / pprofWork).as("of %d pprof work samples, those whose span_id is their "
                + "request's server span", pprofWork).isGreaterThanOrEqualTo(0.95);
    }

    /** The endpoint whose work a sample's stack is in ({@code /inline}, {@code /pooled}), or null. */
    private static String workOf(ProfilesDictionary d, Sample s) {
        String stack = OtlpMessages.stackOf(d, s);
        return stack.contains("TracedWork.inline") ? "/inline" : stack.contains("TracedWork.pooled") ? "/pooled"
                : null;
    }

    private static String attribute(ProfilesDictionary d, Sample s, String key) {
        for (int i : s.getAttributeIndicesList()) {
            var a = d.getAttributeTable(i);
            if (d.getStringTable(a.getKeyStrindex()).equals(key)) {
                return OtlpMessages.text(a.getValue());
            }
        }
        return null;
    }

    /** A server span's path ({@code url.path}, or the older {@code http.target}). */
    private static String path(Span s) {
        for (KeyValue kv : s.getAttributesList()) {
            if (kv.getKey().equals("url.path") || kv.getKey().equals("http.target")) {
                return kv.getValue().getStringValue();
            }
        }
        return null;
    }

    /** Asks /inline and /pooled in turn until the server goes away. */
    private static void load(int port, AtomicBoolean serving, AtomicLong answered) {
        HttpLoad.run(port, serving, answered, n -> n % 2 == 0 ? "/inline" : "/pooled");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String javaVersion(Path jdk) throws IOException {
        for (String line : Files.readAllLines(jdk.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                return line.substring("JAVA_VERSION=".length()).replace("\"", "");
            }
        }
        throw new IOException(jdk + "/release names no JAVA_VERSION");
    }
}
