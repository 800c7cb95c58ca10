package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import io.mixflame.testsupport.RawSockets;
import io.mixflame.testsupport.TestJdks;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP endpoint against hostile or careless clients: it must not keep the application alive, slow and idle
 * clients must not lock others out, a connection flood must not exhaust threads or descriptors, bad requests get
 * a clear status, and the logged address is one a client can use.
 */
class HttpHardeningIT {
    private static final Path JDK = TestJdks.all().get(0);
    /** Generous bound for "answered at all"; the endpoint answers status requests in milliseconds. */
    private static final Duration ANSWERED = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(ANSWERED).build();

    private ChildJvm spinWithHttp(Path jdk, String options, int seconds) throws IOException {
        return ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start," + options + ",file=" + dir.resolve("x.collapsed"),
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", Integer.toString(seconds)));
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(ANSWERED)
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    // The endpoint's and the loop's threads are the profiler's own: one JDK.
    @Test
    void applicationExitsWhenMainReturnsWithHttpAndLoop() throws Exception {
        Path jdk = TestJdks.running();
        try (ChildJvm app = spinWithHttp(jdk, "loop=60s,http=127.0.0.1:0", 2)) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            HttpIT.port(app);
            assertThat(app.awaitExit(Duration.ofSeconds(30))).as(app.stderr()).isZero();
            assertThat(app.stdout()).contains("done");
            assertThat(app.stderr()).contains("written at exit");
        }
    }

    @Test
    void slowAndIdleClientsDoNotLockOutOthersAndAreDropped() throws Exception {
        try (ChildJvm app = spinWithHttp(JDK, "http=127.0.0.1:0", 120)) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            int port = HttpIT.port(app);
            List<Socket> slow = new ArrayList<>();
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < 6; i++) {
                    slow.add(connect(port));
                    idle.add(connect(port));
                }
                Thread trickle = new Thread(() -> trickle(slow), "slow-clients");
                trickle.setDaemon(true);
                trickle.start();
                Thread.sleep(1_500);

                HttpResponse<String> status = get(port, "/status");
                assertThat(status.statusCode()).isEqualTo(200);
                assertThat(status.body()).contains("\"engine\":");
                HttpResponse<String> flame = get(port, "/flame?seconds=1");
                assertThat(flame.statusCode()).isEqualTo(200);
                assertThat(flame.body()).contains("<h1>mixflame");

                for (Socket s : slow) {
                    assertThat(RawSockets.closedByPeerWithin(s, ANSWERED)).as("a slow client is dropped").isTrue();
                }
                for (Socket s : idle) {
                    assertThat(RawSockets.closedByPeerWithin(s, ANSWERED)).as("an idle connection is dropped").isTrue();
                }
                trickle.interrupt();
            } finally {
                closeAll(slow);
                closeAll(idle);
            }
            assertThat(get(port, "/status").statusCode()).isEqualTo(200);
            assertThat(app.isAlive()).isTrue();
        }
    }

    @Test
    void connectionFloodKeepsThreadsAndDescriptorsBounded() throws Exception {
        try (ChildJvm app = spinWithHttp(JDK, "http=127.0.0.1:0", 120)) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            int port = HttpIT.port(app);
            assertThat(get(port, "/status").statusCode()).isEqualTo(200);
            long fdsBefore = openDescriptors(app.pid());
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    flood.add(connect(port));
                }
                // Some requests started but never finished, on top of the idle ones.
                for (int i = 0; i < flood.size(); i += 3) {
                    send(flood.get(i), "GET /status HTTP/1.1\r\nHost: x\r\n");
                }
                Thread.sleep(1_000);
                long fdsDuring = openDescriptors(app.pid());
                assertThat(fdsDuring - fdsBefore).as("descriptors held for 300 open connections")
                        .isLessThan(64);
                assertThat(httpThreads(app.pid())).as("mixflame-http threads").hasSizeLessThanOrEqualTo(8);

                HttpResponse<String> status = get(port, "/status");
                assertThat(status.statusCode()).isEqualTo(200);
            } finally {
                closeAll(flood);
            }
            assertThat(get(port, "/status").statusCode()).isEqualTo(200);
            assertThat(app.isAlive()).isTrue();
        }
    }

    @Test
    void badRequestsGetAClearStatus() throws Exception {
        try (ChildJvm app = spinWithHttp(JDK, "http=127.0.0.1:0", 120)) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            int port = HttpIT.port(app);

            String big = "GET /status HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(64 * 1024) + "\r\n\r\n";
            String oversized = exchange(port, big);
            assertThat(oversized).as("an oversized head is refused or cut off").satisfiesAnyOf(
                    r -> assertThat(r).startsWith("HTTP/1.1 431 "),
                    r -> assertThat(r).isEmpty());
            String manyHeaders = "GET /status HTTP/1.1\r\n" + "X-H: v\r\n".repeat(5_000) + "\r\n";
            assertThat(exchange(port, manyHeaders)).satisfiesAnyOf(
                    r -> assertThat(r).startsWith("HTTP/1.1 431 "),
                    r -> assertThat(r).isEmpty());

            assertThat(exchange(port, "DELETE /status HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 405 ")
                    .contains("Allow: GET");
            assertThat(exchange(port, "POST /debug/pprof/profile HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"))
                    .startsWith("HTTP/1.1 405 ");
            assertThat(exchange(port, "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 404 ");
            assertThat(exchange(port, "GET /flame?seconds=-1 HTTP/1.0\r\n\r\n")).startsWith("HTTP/1.1 400 ");
            assertThat(exchange(port, "GET /flame?seconds=99999999999999999999 HTTP/1.1\r\n\r\n"))
                    .startsWith("HTTP/1.1 400 ");
            assertThat(exchange(port, "this is not http\r\n\r\n")).startsWith("HTTP/1.1 400 ");
            assertThat(exchange(port, "GET /status HTTP/2.0\r\n\r\n")).startsWith("HTTP/1.1 505 ");
            assertThat(exchange(port, "GET /status HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 200 ")
                    .contains("Connection: close").contains("\"engine\":");
            assertThat(app.isAlive()).isTrue();
        }
    }

    @Test
    void wildcardAddressIsLoggedAsAUsableUrl() throws Exception {
        try (ChildJvm app = spinWithHttp(JDK, "http=0.0.0.0:0", 120)) {
            app.awaitOutput("ready", Duration.ofSeconds(30));
            String url = loggedUrl(app);
            HttpResponse<String> status = client.send(HttpRequest.newBuilder(URI.create(url + "status"))
                    .timeout(ANSWERED).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(status.statusCode()).as(url).isEqualTo(200);
            assertThat(app.stderr()).as("says it listens beyond loopback").contains("0.0.0.0");
        }
    }

    private static String loggedUrl(ChildJvm app) throws Exception {
        Pattern p = Pattern.compile("serving profiles on (http://\\S+/) ");
        for (int i = 0; i < 200; i++) {
            Matcher m = p.matcher(app.stderr());
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no HTTP address in " + app.stderr());
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        return s;
    }

    private static void send(Socket s, String text) {
        try {
            s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
        } catch (IOException e) {
            // Already dropped by the server, which is allowed.
        }
    }

    /** Sends a request head one byte a second to each socket, never finishing it, until interrupted. */
    private static void trickle(List<Socket> sockets) {
        byte[] head = ("GET /status HTTP/1.1\r\nX-Slow: " + "a".repeat(60)).getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < head.length && !Thread.currentThread().isInterrupted(); i++) {
            for (Socket s : sockets) {
                try {
                    OutputStream out = s.getOutputStream();
                    out.write(head[i]);
                    out.flush();
                } catch (IOException e) {
                    // Dropped: the test checks that separately.
                }
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Sends raw bytes, reads everything until the server closes; empty when it closed without an answer. */
    private static String exchange(int port, String request) throws IOException {
        try (Socket s = connect(port)) {
            s.setSoTimeout((int) ANSWERED.toMillis());
            send(s, request);
            try {
                return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (SocketException e) {
                return "";
            }
        }
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // Closing a test socket cannot fail usefully.
            }
        }
    }

    private static long openDescriptors(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.count();
        }
    }

    /** The child's threads whose name starts with mixflame-http (Linux keeps the first 15 characters). */
    private static List<String> httpThreads(long pid) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim();
                    if (name.startsWith("mixflame-http")) {
                        names.add(name);
                    }
                } catch (IOException e) {
                    // The thread ended while listing.
                }
            }
        }
        return names;
    }
}
