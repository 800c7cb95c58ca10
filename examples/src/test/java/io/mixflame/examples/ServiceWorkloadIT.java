package io.mixflame.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code service}: under load, the clients print latency percentiles for every endpoint, and the workers print
 * the time they slept and waited for the lock. Both ways: server and clients in one process, and apart.
 */
class ServiceWorkloadIT {
    private static final Pattern ROW = Pattern.compile(
            "\\| (/\\w+) \\| (\\d+) \\| ([\\d.]+) \\| ([\\d.]+) \\| ([\\d.]+) \\| ([\\d.]+) \\|");

    @TempDir
    Path dir;

    // The workload alone, no profiler: its own code is the subject, run on one JDK.
    @Test
    void loadInOneProcessPrintsLatenciesAndWaits() throws Exception {
        Path jdk = TestJdks.running();
        ExampleRun run = ExampleRun.run(jdk, dir, "service", "--load", "--seconds", "4", "--threads", "6");
        assertLatencyTable(run.stdout());
        assertThat(run.number("/sleep: (\\d+) requests")).isPositive();
        assertThat(run.number("(\\d+) ms sleeping")).isPositive();
        assertThat(run.number("(\\d+) ms holding it")).isPositive();
        run.number("(\\d+) ms waiting for the lock");
        assertThat(run.number("footprint: VmHWM (\\d+) kB")).isPositive();
    }

    // The workload alone, no profiler: its own code is the subject, run on one JDK.
    @Test
    void loadGeneratorAloneReachesTheServiceByPort() throws Exception {
        Path jdk = TestJdks.newest();
        Path serverDir = Files.createDirectories(dir.resolve("server"));
        Path clientDir = Files.createDirectories(dir.resolve("client"));
        try (ChildJvm server = ChildJvm.start(jdk, serverDir, List.of("-jar", BuiltJars.examples().toString(),
                "service", "--seconds", "10"))) {
            server.awaitOutput("listening on 127.0.0.1:", Duration.ofSeconds(60));
            Matcher port = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)").matcher(server.stdout());
            assertThat(port.find()).isTrue();
            ExampleRun client = ExampleRun.run(jdk, clientDir, "service-load", "--port", port.group(1),
                    "--seconds", "3", "--threads", "4", "--requests", "100000");
            assertLatencyTable(client.stdout());
            assertThat(server.awaitExit(Duration.ofSeconds(60))).as(server.stderr()).isZero();
            assertThat(server.stdout()).contains("/lock: ").contains("ms waiting for the lock");
            Matcher served = Pattern.compile("/cpu: (\\d+) requests").matcher(server.stdout());
            assertThat(served.find()).as(server.stdout()).isTrue();
            assertThat(Long.parseLong(served.group(1))).isPositive();
        }
    }

    /** A row with requests > 0 and p50 ≤ p90 ≤ p99 ≤ max for each endpoint, and a positive rate. */
    private static void assertLatencyTable(String stdout) {
        assertThat(stdout).contains("| endpoint | requests | p50 ms | p90 ms | p99 ms | max ms |");
        Matcher rate = Pattern.compile("([\\d.]+) requests/s, 0 errors").matcher(stdout);
        assertThat(rate.find()).as(stdout).isTrue();
        assertThat(Double.parseDouble(rate.group(1))).isPositive();
        Matcher m = ROW.matcher(stdout);
        int rows = 0;
        while (m.find()) {
            rows++;
            assertThat(m.group(1)).isIn("/cpu", "/sleep", "/lock");
            assertThat(Long.parseLong(m.group(2))).as("requests to %s", m.group(1)).isPositive();
            double p50 = Double.parseDouble(m.group(3));
            double p99 = Double.parseDouble(m.group(5));
            assertThat(p50).as("p50 of %s", m.group(1)).isPositive().isLessThanOrEqualTo(p99);
            assertThat(p99).isLessThanOrEqualTo(Double.parseDouble(m.group(6)));
        }
        assertThat(rows).as("rows in\n%s", stdout).isEqualTo(3);
    }
}
