package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.PushReceiver.Behaviour;
import io.mixflame.examples.PushReceiver.Request;
import io.mixflame.examples.gotool.GoPprof;
import io.mixflame.examples.gotool.GoToolchain;
import io.mixflame.profile.Profile;
import io.mixflame.report.OtlpMessages;
import io.mixflame.report.ProfileFiles;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Continuous profiling into a fleet's backends: the {@code cpu} example with {@code loop=1s} pushes each period to an
 * OpenTelemetry collector ({@code otlp=}) and to Pyroscope ({@code pyroscope=}), both a loopback receiver of the
 * test's own, writes its periods as {@code .otlp} files and serves pprof for scrapers. Bodies and files are decoded by
 * OpenTelemetry's generated classes; receivers that are down, silent, or answer 503 or 429 leave the application's
 * work time and its exit as they are without a push.
 */
class FleetPushIT {
    private static final String TOKEN = "s3cret-push-token";
    private static final Pattern HTTP_PORT = Pattern.compile("serving profiles on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Pattern ROUNDS_DONE = Pattern.compile("cpu: \\d+ rounds in (\\d+) ms");

    @TempDir
    Path dir;

    @Test
    void periodsArePushedToTheCollectorAndPyroscopeWrittenAsOtlpAndServedForScrapers() throws Exception {
        GoPprof pprof = new GoPprof(GoToolchain.require(), dir);
        Path jdk = TestJdks.all().get(0);
        List<ExportProfilesServiceRequest> pushed = new ArrayList<>();
        try (PushReceiver receiver = PushReceiver.start(Behaviour.OK)) {
            ProfilePeriods periods = new ProfilePeriods("samples in alpha, beta and gamma",
                    CollapsedShares.samplesForMargin(0.08), Duration.ofMinutes(2), 500);
            CollapsedShares shares = periods.collect(Duration.ofSeconds(4),
                    p -> CollapsedShares.read(p).independentCpuSplitSamples(),
                    (i, length) -> run(jdk, receiver, i, length, pprof, pushed)).shares();
            shares.assertCpuSplit();

            List<Request> otlp = receiver.requests("/v1development/profiles");
            assertThat(otlp).as("OTLP pushes, a period a second").hasSizeGreaterThanOrEqualTo(3);
            for (Request r : otlp) {
                assertThat(r.method()).isEqualTo("POST");
                assertThat(r.header("Content-Type")).isEqualTo("application/x-protobuf");
                assertThat(r.header("Content-Encoding")).isEqualTo("gzip");
                assertThat(r.header("Authorization")).isEqualTo("Bearer " + TOKEN);
            }
            for (ExportProfilesServiceRequest request : pushed) {
                assertThat(OtlpMessages.problems(request)).isEmpty();
                assertThat(OtlpMessages.resourceAttributes(request)).containsEntry("service.name", "fleet-test")
                        .containsEntry("env", "ci");
                assertThat(OtlpMessages.sampleTypes(request)).containsExactly("samples/count", "cpu/nanoseconds");
            }
            assertThat(pushed.stream().flatMap(r -> OtlpMessages.sampleAttributes(r, "samples/count").stream()))
                    .as("samples name their threads").anyMatch(a -> "main".equals(a.get("thread.name")));

            List<Request> pyroscope = receiver.requests("/ingest");
            assertThat(pyroscope).as("Pyroscope pushes").hasSizeGreaterThanOrEqualTo(3);
            for (Request r : pyroscope) {
                assertThat(r.method()).isEqualTo("POST");
                assertThat(r.query()).containsEntry("name", "fleet-test{env=ci}").containsEntry("format", "pprof")
                        .containsEntry("sampleRate", "500");
                assertThat(Long.parseLong(r.query().get("until"))).isGreaterThanOrEqualTo(
                        Long.parseLong(r.query().get("from")));
                assertThat(r.header("Authorization")).isEqualTo("Bearer " + TOKEN);
                Path body = Files.write(dir.resolve("pyroscope.pb.gz"), r.body());
                Profile read = ProfileFiles.read(body, w -> { });
                assertThat(read.info().event()).isEqualTo("cpu");
            }
        }
    }

    /** One run of the example, {@code length} long; returns its pushed OTLP samples as a collapsed file. */
    private Path run(Path jdk, PushReceiver receiver, int i, Duration length, GoPprof pprof,
                     List<ExportProfilesServiceRequest> pushed) throws Exception {
        Path runDir = Files.createDirectories(dir.resolve("run-" + i));
        int before = receiver.requests("/v1development/profiles").size();
        String options = "start,interval=2ms,threads,loop=1s,service=fleet-test,tags=env=ci,http=127.0.0.1:0"
                + ",otlp=" + receiver.url() + ",pyroscope=" + receiver.url() + ",file=" + runDir.resolve("p.otlp");
        try (ChildJvm app = ChildJvm.start(List.of("env", "MIXFLAME_AUTH_TOKEN=" + TOKEN), jdk, runDir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=" + options,
                "-jar", BuiltJars.examples().toString(), "cpu", "--seconds", Long.toString(length.toSeconds())))) {
            if (i == 0) {
                scrape(app, pprof, runDir);
            }
            assertThat(app.awaitExit(length.plus(Duration.ofSeconds(60)))).as(app.stderr()).isZero();
            assertThat(app.stderr()).as("the token is never logged").doesNotContain(TOKEN);
        }
        Map<String, Long> stacks = new TreeMap<>();
        List<Request> all = receiver.requests("/v1development/profiles");
        for (Request r : all.subList(before, all.size())) {
            ExportProfilesServiceRequest request = OtlpMessages.parse(r.body());
            pushed.add(request);
            OtlpMessages.stacks(request, "samples/count").forEach((k, v) -> stacks.merge(k, v, Long::sum));
        }
        try (Stream<Path> files = Files.list(runDir)) {
            List<Path> written = files.filter(p -> p.toString().endsWith(".otlp")).toList();
            assertThat(written).as("a .otlp file a period").isNotEmpty();
            for (Path file : written) {
                assertThat(OtlpMessages.problems(OtlpMessages.parse(Files.readAllBytes(file)))).as(file.toString())
                        .isEmpty();
            }
        }
        StringBuilder collapsed = new StringBuilder();
        stacks.forEach((stack, samples) -> collapsed.append(stack).append(' ').append(samples).append('\n'));
        return Files.writeString(runDir.resolve("pushed.collapsed"), collapsed, StandardCharsets.UTF_8);
    }

    /** Pulls a second of pprof as a scraper does: its Content-Type, and Go's pprof reads the body. */
    private static void scrape(ChildJvm app, GoPprof pprof, Path runDir) throws Exception {
        int port = -1;
        for (int tries = 0; tries < 200 && port < 0; tries++) {
            Matcher m = HTTP_PORT.matcher(app.stderr());
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
            } else {
                Thread.sleep(50);
            }
        }
        assertThat(port).as("the HTTP port in %s", app.stderr()).isPositive();
        HttpResponse<byte[]> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/debug/pprof/profile?seconds=1")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        Path body = Files.write(runDir.resolve("scraped.pb.gz"), response.body());
        String top = pprof.report(body, "-top");
        assertThat(top).as(top).contains("Type: cpu").contains("CpuWorkload");
    }

    /**
     * A service that ran Pyroscope's agent, its settings unchanged and {@code pyroscope.jar} replaced by mixflame's: the
     * same application, the same labels, the same tenant, with no option of mixflame's own.
     */
    @Test
    void pyroscopesAgentSettingsAloneSendTheSameApplication() throws Exception {
        try (PushReceiver receiver = PushReceiver.start(Behaviour.OK)) {
            Path runDir = Files.createDirectories(dir.resolve("pyroscope-settings"));
            try (ChildJvm app = ChildJvm.start(List.of("env", "PYROSCOPE_SERVER_ADDRESS=" + receiver.url(),
                    "PYROSCOPE_APPLICATION_NAME=checkout.api", "PYROSCOPE_LABELS=zone=b,env=ci",
                    "PYROSCOPE_TENANT_ID=team-7"), TestJdks.running(), runDir, List.of(
                    "-javaagent:" + BuiltJars.agent(),
                    "-jar", BuiltJars.examples().toString(), "cpu", "--seconds", "2"))) {
                assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
                assertThat(app.stderr()).contains("options from Pyroscope's settings");
            }
            List<Request> pushes = receiver.requests("/ingest");
            assertThat(pushes).as("the period written at exit, pushed").isNotEmpty();
            for (Request r : pushes) {
                // Pyroscope's agent names it so: the labels sorted, after the application's name.
                assertThat(r.query()).containsEntry("name", "checkout.api{env=ci,zone=b}");
                assertThat(r.header("X-Scope-OrgID")).isEqualTo("team-7");
            }
            try (Stream<Path> files = Files.list(runDir)) {
                assertThat(files.filter(p -> p.getFileName().toString().startsWith("mixflame-")))
                        .as("a push alone writes no file").isEmpty();
            }
        }
    }

    @Test
    void receiversThatAreDownSilentOrRefusingLeaveTheWorkAndTheExitAsTheyAre() throws Exception {
        Path jdk = TestJdks.all().get(0);
        try (PushReceiver silent = PushReceiver.start(Behaviour.SILENT);
             PushReceiver unavailable = PushReceiver.start(Behaviour.UNAVAILABLE);
             PushReceiver tooMany = PushReceiver.start(Behaviour.TOO_MANY)) {
            String down = "http://127.0.0.1:" + freePort();
            Timing none = timed(jdk, "none", "");
            Timing slowAnd503 = timed(jdk, "silent", ",otlp=" + silent.url() + ",pyroscope=" + unavailable.url());
            Timing downAnd429 = timed(jdk, "down", ",otlp=" + down + ",pyroscope=" + tooMany.url());
            Timing noneAgain = timed(jdk, "none-again", "");

            for (Timing t : List.of(none, slowAnd503, downAnd429, noneAgain)) {
                System.out.printf("%s: work %d ms, exit %d ms after%n", t.name, t.workMillis, t.exitMillis);
            }
            long baseline = Math.max(none.workMillis, noneAgain.workMillis);
            for (Timing t : List.of(slowAnd503, downAnd429)) {
                assertThat(t.workMillis).as("work time of %s beside no push (%d, %d ms)", t.name, none.workMillis,
                        noneAgain.workMillis).isLessThanOrEqualTo(baseline * 5 / 4 + 300);
                assertThat(t.exitMillis).as("from the work's end to the JVM's exit, %s", t.name)
                        .isLessThanOrEqualTo(Math.max(none.exitMillis, noneAgain.exitMillis) + 3_000);
                assertThat(t.stderr.lines().filter(l -> l.contains("WARN") && l.contains("push")).count())
                        .as("one line per outage of each receiver: %s", t.stderr).isBetween(1L, 2L);
            }
            assertThat(silent.requests()).as("the silent receiver was asked").isNotEmpty();
            assertThat(unavailable.requests()).as("503: retried").hasSizeGreaterThanOrEqualTo(2);
            List<Request> refused = tooMany.requests();
            assertThat(refused).as("429 with Retry-After: 2").isNotEmpty();
        }
    }

    private record Timing(String name, long workMillis, long exitMillis, String stderr) {
    }

    /** The example's fixed work with these push options: its work time, and how long its JVM took to exit after. */
    private Timing timed(Path jdk, String name, String push) throws Exception {
        Path runDir = Files.createDirectories(dir.resolve(name));
        String options = "start,loop=1s,service=fleet-test,file=" + runDir.resolve("p.collapsed") + push;
        try (ChildJvm app = ChildJvm.start(jdk, runDir, List.of("-javaagent:" + BuiltJars.agent() + "=" + options,
                "-jar", BuiltJars.examples().toString(), "cpu", "--rounds", "6000"))) {
            app.awaitOutput("rounds in", Duration.ofSeconds(60));
            long done = System.nanoTime();
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            long exit = (System.nanoTime() - done) / 1_000_000;
            Matcher m = ROUNDS_DONE.matcher(app.stdout());
            assertThat(m.find()).as(app.stdout()).isTrue();
            return new Timing(name, Long.parseLong(m.group(1)), exit, app.stderr());
        }
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
