package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.agent.push.TestReceiver.Request;
import io.mixflame.agent.push.TestReceiver.Waits;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.PprofWriter;
import io.mixflame.report.ReportOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class ProfilePusherTest {
    private static final String TOKEN = "tok-3f9a1c77e2";
    private static final String PASSWORD = "pw-5d1e09b4";
    /**
     * Quick retries; timeouts and an exit wait far above what a push takes, even on a machine so busy that a test's
     * threads wait seconds to run: the exit returns as soon as every target is done.
     */
    private static final PushTiming QUICK = new PushTiming(15_000, 30_000, 20, 200, 5_000, 30_000, 4);
    /**
     * Retries far off: what happens before them is what a test sees. Connect and read timeouts and an exit wait far
     * above what the tests wait for, so that a busy machine's slowness (a test JVM's threads not run for seconds
     * beside a load of hundreds of threads) is never taken for a timeout: the exit returns as soon as every target is
     * done.
     */
    private static final PushTiming PATIENT = new PushTiming(15_000, 60_000, 60_000, 60_000, 5_000, 60_000, 4);

    @Test
    void otlpPostsEachPeriodGzippedWithItsHeadersFromAThreadStartedAtTheFirstPeriod() throws Exception {
        try (TestReceiver r = TestReceiver.start()) {
            ProfilePusher pusher = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);
            assertThat(pusher.started()).as("no thread before the first period").isFalse();

            pusher.offer(period(1_000));
            Request q = r.await(1).get(0);

            assertThat(pusher.started()).isTrue();
            assertThat(q.method()).isEqualTo("POST");
            assertThat(q.path()).as("the trailing slash of otlp= tolerated").isEqualTo("/v1development/profiles");
            assertThat(q.rawQuery()).isNull();
            assertThat(q.header("Content-Type")).isEqualTo("application/x-protobuf");
            assertThat(q.header("Content-Encoding")).isEqualTo("gzip");
            assertThat(q.header("Authorization")).isEqualTo("Bearer " + TOKEN);
            assertThat(q.header("Connection")).isEqualToIgnoringCase("close");
            assertThat(gunzip(q.body())).isEqualTo("period 1000");
            Waits.until(() -> pusher.counters().sent() == 1, "counting the push");
            assertThat(pusher.counters().bytes()).isEqualTo(q.body().length);
            assertThat(pusher.counters().failed()).isZero();
            assertThat(pusher.finish(null)).isTrue();
        }
    }

    @Test
    void pyroscopeGetsOnePprofPerEventNamedByTheServiceAndItsTags() throws Exception {
        try (TestReceiver r = TestReceiver.start()) {
            Map<String, String> tags = PushTags.parse("region=eu-west;tier=web front");
            PushOptions options = PushOptions.of(null, PushAddress.parse("pyroscope", r.url()), "checkout", tags,
                    null, "svc", PASSWORD, Map.of());
            ProfilePusher pusher = new ProfilePusher(options, ReportOptions.DEFAULT);
            List<Profile> period = List.of(profile("cpu", 10_000_000L), profile(ProfileInfo.ALLOC, 524_288L),
                    profile(ProfileInfo.LOCK, 10_000L));

            pusher.offer(period);
            List<Request> requests = r.await(3);

            assertThat(requests).hasSize(3);
            for (int i = 0; i < 3; i++) {
                Request q = requests.get(i);
                assertThat(q.path()).isEqualTo("/ingest");
                assertThat(q.header("Content-Type")).isEqualTo("application/octet-stream");
                assertThat(q.header("Content-Encoding")).isNull();
                assertThat(q.header("Authorization")).isEqualTo("Basic " + Base64.getEncoder().encodeToString(
                        ("svc:" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
                assertThat(q.rawQuery()).contains("name=checkout%7Bregion%3Deu-west%2Ctier%3Dweb%20front%7D");
                assertThat(query(q)).containsEntry("name", "checkout{region=eu-west,tier=web front}")
                        .containsEntry("from", "1700000000").containsEntry("until", "1700000061")
                        .containsEntry("format", "pprof").containsEntry("spyName", "mixflame");
                assertThat(q.body()).isEqualTo(pprof(period.get(i)));
            }
            assertThat(query(requests.get(0))).as("cpu every 10 ms").containsEntry("sampleRate", "100");
            assertThat(query(requests.get(1))).doesNotContainKey("sampleRate");
            assertThat(query(requests.get(2))).doesNotContainKey("sampleRate");
            assertThat(pusher.finish(null)).isTrue();
            assertThat(pusher.counters().sent()).isEqualTo(3);
        }
    }

    @Test
    void serverErrorsAreRetriedAndTheOutageIsOneWarningThenOneInfo() throws Exception {
        try (TestReceiver r = TestReceiver.start(); StderrCapture log = new StderrCapture()) {
            r.then(503, null, "overloaded").then(503, null, "still overloaded");
            ProfilePusher pusher = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);

            pusher.offer(period(7));

            List<Request> requests = r.await(3);
            assertThat(requests).extracting(q -> gunzip(q.body())).containsOnly("period 7");
            Waits.until(() -> !log.lines("INFO", r.url()).isEmpty(), "the outage's end in " + log.text());
            assertThat(log.lines("WARN", r.url())).singleElement().asString()
                    .contains("pushing profiles to " + r.url() + "/v1development/profiles failed: 503")
                    .contains("overloaded").contains("retrying");
            assertThat(log.lines("INFO", r.url())).singleElement().asString()
                    .contains("works again; 0 periods were dropped meanwhile");
            assertThat(pusher.counters().failed()).isEqualTo(2);
            assertThat(pusher.counters().sent()).isEqualTo(1);
            assertThat(pusher.finish(null)).isTrue();
        }
    }

    @Test
    void retryAfterIsHonoured() throws Exception {
        try (TestReceiver r = TestReceiver.start(); StderrCapture log = new StderrCapture()) {
            r.then(429, "1", "slow down");
            ProfilePusher pusher = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);

            pusher.offer(period(1));

            List<Request> requests = r.await(2);
            long gap = requests.get(1).atNanos() - requests.get(0).atNanos();
            assertThat(Duration.ofNanos(gap)).as("Retry-After: 1, not the backoff's 20 ms")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(900));
            assertThat(log.lines("WARN", r.url())).singleElement().asString().contains("429: slow down");
            pusher.finish(null);
        }
    }

    @Test
    void aClientErrorDropsThePeriodWithoutRetryingAndSaysWhy() throws Exception {
        try (TestReceiver r = TestReceiver.start(); StderrCapture log = new StderrCapture()) {
            r.then(400, null, "bad profile\n\u0007data");
            ProfilePusher pusher = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);

            pusher.offer(period(1));
            Waits.until(() -> pusher.counters().dropped() == 1, "dropping the refused period");
            pusher.offer(period(2));
            Waits.until(() -> pusher.counters().sent() == 1, "pushing the next one");

            assertThat(r.requests()).extracting(q -> gunzip(q.body())).containsExactly("period 1", "period 2");
            assertThat(log.lines("WARN", r.url())).singleElement().asString()
                    .contains("400").contains("bad profile data").contains("dropped");
            assertThat(pusher.finish(null)).isTrue();
        }
    }

    @Test
    void aFullQueueDropsTheOldestPeriodsAndCountsThem() throws Exception {
        try (TestReceiver r = TestReceiver.start(); StderrCapture log = new StderrCapture()) {
            r.then(503, null, "");
            ProfilePusher pusher = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, PATIENT);
            pusher.offer(period(1));
            // Logged once the failure is settled: period 1 waits for its retry, a minute off.
            Waits.until(() -> !log.lines("WARN", r.url()).isEmpty(), "the first failure");

            for (int i = 2; i <= 6; i++) {
                pusher.offer(period(i));
            }

            assertThat(pusher.counters().dropped()).isEqualTo(2);
            assertThat(pusher.finish(null)).as("the exit tries what is kept at once").isTrue();
            assertThat(r.requests()).extracting(q -> gunzip(q.body()))
                    .containsExactly("period 1", "period 3", "period 4", "period 5", "period 6");
            assertThat(log.lines("INFO", r.url())).singleElement().asString()
                    .contains("2 periods were dropped meanwhile");
        }
    }

    @Test
    void aFailingOrHangingTargetDoesNotHoldBackAnother() throws Exception {
        try (TestReceiver failing = TestReceiver.start(); TestReceiver working = TestReceiver.start();
             ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             StderrCapture log = new StderrCapture()) {
            failing.always(503);
            OtlpPush hanging = new OtlpPush(PushAddress.parse("otlp", "http://127.0.0.1:" + silent.getLocalPort()),
                    ProfilePusherTest::marker);
            ProfilePusher pusher = new ProfilePusher(List.of(hanging, otlp(failing), otlp(working)), bearer(),
                    ReportOptions.DEFAULT, PATIENT);

            long offered = System.nanoTime();
            pusher.offer(period(1));
            pusher.offer(period(2));

            assertThat(working.await(2)).extracting(q -> gunzip(q.body())).containsExactly("period 1", "period 2");
            assertThat(Duration.ofNanos(System.nanoTime() - offered)).as("well before the hanging one's read timeout")
                    .isLessThan(Duration.ofSeconds(10));
            // Its thread runs on its own: the one request may come after the working target's two. Then nothing
            // more: its retry is a minute off.
            assertThat(failing.await(1)).hasSize(1);
            // Resets the hanging connection: the exit need not wait for its read timeout.
            silent.close();
            pusher.finish(null);
        }
    }

    @Test
    void aReceiverThatNeverAnswersBlocksNeitherTheTimerNorTheExit() throws Exception {
        PushTiming timing = new PushTiming(1_000, 2_000, 20, 200, 5_000, 300, 4);
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             StderrCapture log = new StderrCapture()) {
            silent.setSoTimeout(5_000);
            String url = "http://127.0.0.1:" + silent.getLocalPort();
            ProfilePusher pusher = new ProfilePusher(List.of(new OtlpPush(PushAddress.parse("otlp", url),
                    ProfilePusherTest::marker)), bearer(), ReportOptions.DEFAULT, timing);

            pusher.offer(period(1));
            try (Socket accepted = silent.accept()) {
                // A request hangs now; the timer's next period is handed over at once all the same.
                long offered = System.nanoTime();
                pusher.offer(period(2));
                assertThat(Duration.ofNanos(System.nanoTime() - offered)).isLessThan(Duration.ofMillis(500));

                long exit = System.nanoTime();
                boolean delivered = pusher.finish(period(3));
                assertThat(Duration.ofNanos(System.nanoTime() - exit)).as("the exit's bound of 300 ms")
                        .isLessThan(Duration.ofMillis(1_000));
                assertThat(delivered).isFalse();
                assertThat(pusher.awaitEnd(4_000)).as("the push thread ends after its read timeout").isTrue();
            }
            assertThat(pusher.counters().dropped()).isEqualTo(3);
            assertThat(log.lines("WARN", url)).singleElement().asString()
                    .contains("did not finish within the 300 ms the exit waits; 3 periods are not pushed");
        }
    }

    @Test
    void theLastPeriodIsPushedAtTheExitAndNothingAfter() throws Exception {
        try (TestReceiver r = TestReceiver.start()) {
            ProfilePusher pusher = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);
            assertThat(pusher.finish(period(9))).isTrue();
            pusher.offer(period(10));
            assertThat(pusher.finish(null)).isTrue();
            assertThat(r.requests()).extracting(q -> gunzip(q.body())).containsExactly("period 9");

            ProfilePusher idle = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);
            assertThat(idle.finish(null)).isTrue();
            assertThat(idle.started()).as("nothing to push, no thread").isFalse();
        }
    }

    @Test
    void aPeriodThatCannotBeEncodedIsDroppedWithOneWarning() throws Exception {
        try (TestReceiver r = TestReceiver.start(); StderrCapture log = new StderrCapture()) {
            OtlpPush broken = new OtlpPush(PushAddress.parse("otlp", r.url()), (profiles, out) -> {
                throw new UnsupportedOperationException("not yet");
            });
            ProfilePusher pusher = new ProfilePusher(List.of(broken), bearer(), ReportOptions.DEFAULT, QUICK);

            pusher.offer(period(1));
            pusher.offer(period(2));

            Waits.until(() -> pusher.counters().dropped() == 2, "dropping both periods");
            assertThat(r.requests()).isEmpty();
            assertThat(log.lines("WARN", r.url())).singleElement().asString().contains("could not be encoded")
                    .contains("not yet");
            pusher.finish(null);
        }
    }

    @Test
    void secretsNeverReachTheLogNotEvenWhenTheServerEchoesThem() throws Exception {
        String basic = Base64.getEncoder().encodeToString(("svc:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        try (TestReceiver r = TestReceiver.start(); StderrCapture log = new StderrCapture()) {
            // 403 rather than 401: HttpURLConnection reads no body of a 401 to a streamed request.
            r.then(403, null, "no entry for Authorization: Bearer " + TOKEN);
            ProfilePusher bearer = new ProfilePusher(List.of(otlp(r)), bearer(), ReportOptions.DEFAULT, QUICK);
            bearer.offer(period(1));
            Waits.until(() -> bearer.counters().dropped() == 1, "the refusal");
            bearer.finish(null);

            r.then(403, null, "svc with " + PASSWORD + " as Basic " + basic + " may not");
            PushAuth auth = PushAuth.resolve(null, "svc", PASSWORD, Map.of());
            ProfilePusher user = new ProfilePusher(List.of(otlp(r)), auth, ReportOptions.DEFAULT, QUICK);
            user.offer(period(2));
            Waits.until(() -> user.counters().dropped() == 1, "the refusal");
            user.finish(null);

            assertThat(log.lines("WARN", r.url())).hasSize(2).allSatisfy(l -> assertThat(l).contains("***"));
            assertThat(log.text()).contains("no entry for", "may not").doesNotContain(TOKEN, PASSWORD, basic);
        }
    }

    private static PushAuth bearer() {
        return PushAuth.resolve(TOKEN, null, null, Map.of());
    }

    private static OtlpPush otlp(TestReceiver r) {
        return new OtlpPush(PushAddress.parse("otlp", r.url() + "/"), ProfilePusherTest::marker);
    }

    /** A body that says which period it is of. */
    private static void marker(List<Profile> profiles, OutputStream out) throws IOException {
        out.write(("period " + profiles.get(0).info().startMillis()).getBytes(StandardCharsets.UTF_8));
    }

    private static List<Profile> period(long id) {
        return List.of(Profile.empty(new ProfileInfo("test", "cpu", 10_000_000L, id, 1_000_000_000L, List.of())));
    }

    /** A profile of a period from 1700000000.123 s, 60.5 s long. */
    private static Profile profile(String event, long interval) {
        return Profile.empty(new ProfileInfo("test", event, interval, 1_700_000_000_123L, 60_500_000_000L,
                List.of()));
    }

    private static byte[] pprof(Profile p) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PprofWriter().write(p, out);
        return out.toByteArray();
    }

    private static String gunzip(byte[] body) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("not gzip", e);
        }
    }

    private static Map<String, String> query(Request q) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String pair : q.rawQuery().split("&")) {
            int eq = pair.indexOf('=');
            params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }
}
