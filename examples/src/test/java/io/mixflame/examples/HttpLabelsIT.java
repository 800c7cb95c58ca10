package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.TestJdks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code labels}: an HTTP server on the JDK's {@code HttpServer} and one on a real Jetty, each with two endpoints
 * whose requests cost CPU in the ratio 3 : 1, loaded by a client in this test with as many requests of each. The
 * profile's {@code [endpoint=…]} shares must match the ratio within 5 points (and four standard errors of their
 * count); the thread working outside requests must carry no endpoint; the light endpoint, asked for as
 * {@code /light/ID}, must be labelled by its context path or servlet pattern, never with an id.
 */
class HttpLabelsIT {
    private static final Pattern PORT = Pattern.compile("^port (\\d+)", Pattern.MULTILINE);

    @TempDir
    Path dir;

    /** Each server once, the JDKs in turn; the attach test below weaves the JDK's server on the other JDK. */
    static Stream<Arguments> serversOnEveryJdk() {
        return TestJdks.spread("jdk", "jetty");
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("serversOnEveryJdk")
    void endpointSharesFollowTheCpuTheirRequestsCost(Path jdk, String server) throws Exception {
        String light = server.equals("jetty") ? "[endpoint=/light/*]" : "[endpoint=/light]";
        String heavy = "[endpoint=/heavy]";
        ProfilePeriods periods = new ProfilePeriods("samples labelled with an endpoint",
                CollapsedShares.samplesForMargin(0.05), Duration.ofMinutes(3), 1000);
        List<Path> profiles = periods.collect(Duration.ofSeconds(5),
                p -> LabeledStacks.read(p).samples(s -> s.labels().contains(heavy) || s.labels().contains(light)),
                (i, length) -> serveUnderLoad(jdk, server, i, length)).profiles();
        LabeledStacks stacks = LabeledStacks.read(profiles);

        long heavySamples = stacks.samples(s -> s.labels().equals(List.of(heavy)));
        long lightSamples = stacks.samples(s -> s.labels().equals(List.of(light)));
        double labelled = heavySamples + lightSamples;
        double expected = 3.0 / 4;
        assertThat(heavySamples / labelled).as("/heavy's share of the endpoints' samples (light %d)", lightSamples)
                .isCloseTo(expected, CollapsedShares.chanceMargin(expected, labelled))
                .isCloseTo(expected, org.assertj.core.api.Assertions.within(0.05));

        long background = stacks.samples(s -> s.has("EndpointWork.background"));
        assertThat(background).as("samples of the thread working outside requests").isPositive();
        assertThat(stacks.samples(s -> s.has("EndpointWork.background") && !s.labels().isEmpty()))
                .as("samples outside requests with a label").isZero();
        long heavyWork = stacks.samples(s -> s.has("EndpointWork.heavy"));
        long lightWork = stacks.samples(s -> s.has("EndpointWork.light"));
        java.util.function.Predicate<LabeledStacks.Stack> heavyUnlabelled = s -> s.has("EndpointWork.heavy")
                && !s.labels().equals(List.of(heavy));
        java.util.function.Predicate<LabeledStacks.Stack> lightUnlabelled = s -> s.has("EndpointWork.light")
                && !s.labels().equals(List.of(light));
        // A walk that needs more of the stack than its sample's copy reads the rest as it is at the walk: a thread
        // in its start-up (class loading, weaving, the JIT's first calls) whose sample is walked late may get the
        // frames it has by then, such as the next request's, under the labels it had at the sample. Seen once in
        // 950 and once in 2 375 samples of an endpoint's work, in one case of several runs each: a walk's error,
        // not the labels'. Two, or one in 500, at most. Labels recorded wrongly would be off for whole requests.
        assertThat(stacks.samples(heavyUnlabelled)).as("of %d samples in /heavy's work, those without its label:%s",
                heavyWork, stacks.describe(heavyUnlabelled)).isLessThanOrEqualTo(Math.max(2, heavyWork / 500));
        assertThat(stacks.samples(lightUnlabelled)).as("of %d samples in /light's work, those without its label:%s",
                lightWork, stacks.describe(lightUnlabelled)).isLessThanOrEqualTo(Math.max(2, lightWork / 500));
        assertThat(stacks.labelFrames()).as("the label frames: endpoints named by pattern, never by a request's id")
                .containsExactlyInAnyOrder(heavy, light);
    }

    /**
     * Attached to a server that has answered already: the JDK server's request chain is loaded, and is woven by
     * retransforming it. Judged on the samples one period gives, within four standard errors of their count.
     */
    // The weaving at attach on the JDK whose server the shares test does not run.
    @Test
    void attachedToARunningServerItWeavesTheClassesLoadedBefore() throws Exception {
        Path jdk = TestJdks.newest();
        Path out = dir.resolve("attached.collapsed");
        long heavyRequests;
        List<String> args = List.of("-jar", BuiltJars.examples().toString(), "endpoints", "--seconds", "12");
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            int port = port(app);
            AtomicBoolean serving = new AtomicBoolean(true);
            AtomicLong requests = new AtomicLong();
            Thread client = new Thread(() -> load(port, 0, serving, requests), "client");
            client.start();
            while (requests.get() < 10) {
                Thread.sleep(50);
            }
            io.mixflame.testsupport.CommandRun start = io.mixflame.testsupport.CommandRun.tool(jdk,
                    dir.resolve("start"), List.of("attach", Long.toString(app.pid()),
                            "start,labels=http,interval=1ms,file=" + out));
            assertThat(start.status()).as(start.stdout() + start.stderr()).isZero();
            long requestsAtStart = requests.get();
            Thread.sleep(5000);
            io.mixflame.testsupport.CommandRun stop = io.mixflame.testsupport.CommandRun.tool(jdk,
                    dir.resolve("stop"), List.of("attach", Long.toString(app.pid()), "stop"));
            assertThat(stop.status()).as(stop.stdout() + stop.stderr()).isZero();
            heavyRequests = Math.max(1, (requests.get() - requestsAtStart) / 2);
            serving.set(false);
            client.join();
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            // JDK 21 on warn of any agent loaded by attach; nothing else may be said on the application's stderr.
            assertThat(app.stderr()).doesNotContain("could not be woven", "sun.misc.Unsafe", "Sharing is only");
        }
        LabeledStacks stacks = LabeledStacks.read(out);
        long heavy = stacks.samples(s -> s.labels().equals(List.of("[endpoint=/heavy]")));
        long light = stacks.samples(s -> s.labels().equals(List.of("[endpoint=/light]")));
        assertThat(heavy + light).as("samples labelled with an endpoint").isGreaterThan(100);
        assertThat((double) heavy / (heavy + light)).as("/heavy's share")
                .isCloseTo(0.75, CollapsedShares.chanceMargin(0.75, heavy + light));
        // The one request the client had in flight while the handlers were woven ran on unlabelled: at most what
        // a /heavy request takes, which the labelled ones show (three times their mean, for the scheduler's jitter).
        long perRequest = (long) Math.ceil((double) heavy / heavyRequests);
        assertThat(stacks.samples(s -> s.has("EndpointWork.heavy") && !s.labels().equals(List.of("[endpoint=/heavy]"))))
                .as("samples in /heavy's work without its label (a /heavy request takes about %d)", perRequest)
                .isLessThanOrEqualTo(3 * perRequest + 1);
    }

    private static int port(ChildJvm app) throws Exception {
        app.awaitOutput("port ", Duration.ofSeconds(60));
        Matcher m = PORT.matcher(app.stdout());
        assertThat(m.find()).as(app.stdout()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /** One period: the server under the agent, and two client threads asking /heavy and /light/ID in turn. */
    private Path serveUnderLoad(Path jdk, String server, int period, Duration length) throws Exception {
        Path out = dir.resolve(server + "-" + period + ".collapsed");
        String classPath = BuiltJars.examples() + java.io.File.pathSeparator
                + BuiltJars.examples().resolveSibling("workloads").resolve("jetty").resolve("*");
        List<String> args = new ArrayList<>(List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,labels,interval=1ms,file=" + out,
                "-cp", classPath, "io.mixflame.examples.Examples", "endpoints", "--seconds",
                Long.toString(length.toSeconds())));
        if (server.equals("jetty")) {
            args.add("--jetty");
        }
        try (ChildJvm app = ChildJvm.start(jdk, dir, args)) {
            int port = port(app);
            AtomicBoolean serving = new AtomicBoolean(true);
            AtomicLong requests = new AtomicLong();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                int client = c;
                Thread t = new Thread(() -> load(port, client, serving, requests), "client-" + c);
                t.start();
                clients.add(t);
            }
            int exit = app.awaitExit(length.plus(Duration.ofSeconds(120)));
            serving.set(false);
            for (Thread t : clients) {
                t.join();
            }
            assertThat(exit).as(app.stderr()).isZero();
            assertThat(requests.get()).as("requests answered").isPositive();
            assertThat(app.stderr()).as("the application's stderr").doesNotContain("WARNING", "could not be woven");
        }
        return out;
    }

    /** Asks /heavy and /light/ID in turn until the server goes away; as many of each. */
    private static void load(int port, int client, AtomicBoolean serving, AtomicLong requests) {
        HttpLoad.run(port, serving, requests, n -> n % 2 == 0 ? "/heavy" : "/light/" + (client * 1_000_000 + n));
    }
}
