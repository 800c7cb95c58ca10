package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code http=127.0.0.1:0}: pprof, HTML and status over HTTP, with bad requests refused. */
class HttpIT {
    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newHttpClient();

    private HttpResponse<byte[]> get(int port, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void servesPprofFlameAndStatus() throws Exception {
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,http=127.0.0.1:0,file=" + dir.resolve("x.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "60"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            int port = port(app);

            HttpResponse<byte[]> status = get(port, "/status");
            assertThat(status.statusCode()).isEqualTo(200);
            assertThat(new String(status.body())).contains("\"engine\":\"perf\"").contains("\"event\":\"cpu\"");

            HttpResponse<byte[]> pprof = get(port, "/debug/pprof/profile?seconds=2");
            assertThat(pprof.statusCode()).isEqualTo(200);
            Decoded profile = decode(pprof.body());
            assertThat(profile.samples).isGreaterThan(50);
            assertThat(profile.functionNames).contains("io/mixflame/testapp/SpinApp.spinInner");
            assertThat(profile.strings).anyMatch(s -> s.startsWith("mixflame engine=perf"));

            HttpResponse<byte[]> flame = get(port, "/flame?seconds=1");
            assertThat(flame.statusCode()).isEqualTo(200);
            assertThat(new String(flame.body())).contains("<h1>mixflame: cpu profile (perf engine)");

            assertThat(get(port, "/debug/pprof/profile?seconds=abc").statusCode()).isEqualTo(400);
            assertThat(get(port, "/debug/pprof/profile?seconds=0").statusCode()).isEqualTo(400);
            assertThat(get(port, "/debug/pprof/profile?minutes=1").statusCode()).isEqualTo(400);
            assertThat(get(port, "/nope").statusCode()).isEqualTo(404);
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);

            List<CompletableFuture<HttpResponse<byte[]>>> concurrent = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                concurrent.add(client.sendAsync(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/debug/pprof/profile?seconds=2")).build(),
                        HttpResponse.BodyHandlers.ofByteArray()));
            }
            List<Integer> codes = concurrent.stream().map(f -> f.join().statusCode()).toList();
            assertThat(codes).as("a limited number served at once").contains(429).contains(200);
            assertThat(app.isAlive()).isTrue();
        }
    }

    @Test
    void servesAllocationAndLockProfilesAsGoNamesThem() throws Exception {
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,event=alloc,lock=100us,http=127.0.0.1:0,file="
                        + dir.resolve("x-%e.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.ContendedApp", "60"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            int port = port(app);

            Decoded allocs = decode(get(port, "/debug/pprof/allocs?seconds=3").body());
            assertThat(allocs.strings).contains("alloc_space", "bytes", "long[]");
            assertThat(allocs.functionNames).contains("io/mixflame/testapp/ContendedApp.contend");
            assertThat(allocs.samples).isPositive();

            Decoded mutex = decode(get(port, "/debug/pprof/mutex?seconds=3").body());
            assertThat(mutex.strings).contains("contentions", "delay", "java.lang.Object");
            assertThat(mutex.functionNames).contains("io/mixflame/testapp/ContendedApp.contend");
            assertThat(mutex.samples).isPositive();

            // As Go serves them without seconds=: the counts so far, at once, for a scraper to make deltas of.
            long asked = System.nanoTime();
            HttpResponse<byte[]> cumulative = get(port, "/debug/pprof/allocs");
            assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(5));
            assertThat(cumulative.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
            assertThat(decode(cumulative.body()).samples).as("allocations since the start")
                    .isGreaterThanOrEqualTo(allocs.samples);
        }
        try (ChildJvm app = ChildJvm.start(TestJdks.all().get(0), dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,http=127.0.0.1:0,file=" + dir.resolve("y.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "60"))) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            HttpResponse<byte[]> none = get(port(app), "/debug/pprof/mutex?seconds=1");
            assertThat(none.statusCode()).isEqualTo(404);
            assertThat(new String(none.body())).contains("not profiling lock");
        }
    }

    static int port(ChildJvm app) throws Exception {
        Pattern p = Pattern.compile("serving profiles on http://127\\.0\\.0\\.1:(\\d+)/");
        for (int i = 0; i < 100; i++) {
            Matcher m = p.matcher(app.stderr());
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no HTTP port in " + app.stderr());
    }

    /** What the test checks of a profile.proto message. */
    private static final class Decoded {
        final List<String> strings = new ArrayList<>();
        final List<Long> functionNameIds = new ArrayList<>();
        final List<String> functionNames = new ArrayList<>();
        long samples;
    }

    private static Decoded decode(byte[] gzipped) throws Exception {
        byte[] bytes = new GZIPInputStream(new java.io.ByteArrayInputStream(gzipped)).readAllBytes();
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        Decoded d = new Decoded();
        for (int tag; (tag = in.readTag()) != 0; ) {
            switch (tag >>> 3) {
                case 2 -> {
                    CodedInputStream sample = in.readBytes().newCodedInput();
                    for (int t; (t = sample.readTag()) != 0; ) {
                        if (t >>> 3 == 2 && (t & 7) == 2) {
                            CodedInputStream values = sample.readBytes().newCodedInput();
                            d.samples += values.readInt64();
                        } else {
                            sample.skipField(t);
                        }
                    }
                }
                case 5 -> {
                    CodedInputStream function = in.readBytes().newCodedInput();
                    for (int t; (t = function.readTag()) != 0; ) {
                        if (t >>> 3 == 2) {
                            d.functionNameIds.add(function.readInt64());
                        } else {
                            function.skipField(t);
                        }
                    }
                }
                case 6 -> d.strings.add(in.readStringRequireUtf8());
                default -> in.skipField(tag);
            }
        }
        for (long id : d.functionNameIds) {
            d.functionNames.add(d.strings.get((int) id));
        }
        return d;
    }
}
