package io.mixflame.agent.http;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.OutputFormat;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves profiles over HTTP for continuous profiling: {@code GET /debug/pprof/profile?seconds=N} (pprof, the
 * endpoint Go services expose and Grafana Alloy's {@code pyroscope.scrape} pulls; of {@code cpu} or {@code wall},
 * else 404),
 * {@code GET /debug/pprof/allocs} and {@code GET /debug/pprof/mutex} (the allocation and lock profiles, where the
 * session records them, else 404: as in Go, the counts since the session started, at once, unless {@code seconds=N}
 * asks for a window; scrapers such as Grafana Alloy's take those cumulative counts and make deltas themselves), {@code GET /flame?seconds=N}
 * (an HTML flame graph) and {@code GET /status} (JSON). At most {@value #CONCURRENT} profile requests at a time
 * (more get 429), {@code seconds} between 1 and {@value #MAX_SECONDS} (else 400), other methods 405, other paths
 * 404. The connections are handled by an {@link HttpConnectionLoop} with the bounds of {@link #LIMITS}: all of its
 * threads are daemons, so the server never keeps the application's JVM alive.
 */
public final class ProfileHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileHttpServer.class);
    static final int CONCURRENT = 2;
    static final int MAX_SECONDS = 300;
    private static final long DEFAULT_SECONDS = 30;
    /**
     * 32 connections, an 8 KiB request head within 5 s, a response taken within 30 s, 2 s of discarding input
     * after it, and four workers: two for profile windows, two to answer status requests and refusals at once.
     */
    static final HttpConnectionLoop.Limits LIMITS = new HttpConnectionLoop.Limits(32, 8 * 1024,
            Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(2), CONCURRENT + 2);

    private final Semaphore slots = new Semaphore(CONCURRENT);
    private final ProfileWindowSource source;
    private HttpConnectionLoop loop;

    private ProfileHttpServer(ProfileWindowSource source) {
        this.source = source;
    }

    /**
     * Starts serving; the log names a URL to reach it.
     *
     * @throws IOException when the address cannot be resolved or bound
     */
    public static ProfileHttpServer start(HttpAddress address, ProfileWindowSource source) throws IOException {
        ProfileHttpServer s = new ProfileHttpServer(source);
        s.loop = HttpConnectionLoop.start(address.socketAddress(), LIMITS, s::handle);
        InetSocketAddress bound = s.loop.localAddress();
        LOG.info("serving profiles on {} (/debug/pprof/profile, /debug/pprof/allocs, /debug/pprof/mutex, /flame, /status){}", address.url(bound),
                address.isWildcard() ? ", listening on every address of this host (" + address.host() + ")" : "");
        return s;
    }

    /** The port served. */
    public int port() {
        return loop.localAddress().getPort();
    }

    private HttpResponse handle(HttpRequestHead request) throws InterruptedException {
        if (!"GET".equals(request.method())) {
            return HttpResponse.text(405, "only GET\n").withHeader("Allow", "GET");
        }
        if (request.announcesBody()) {
            return HttpResponse.text(400, "a GET request has no body\n");
        }
        String path = request.uri().getPath();
        return switch (path) {
            case "/status" -> HttpResponse.of(200, "application/json", status().getBytes(StandardCharsets.UTF_8));
            case "/debug/pprof/profile" -> sampled() ? profile(request.uri(), null, OutputFormat.PPROF,
                    "application/octet-stream") : HttpResponse.text(404, "not profiling cpu or wall (start with"
                    + " event=cpu or event=wall; /debug/pprof/allocs and /debug/pprof/mutex serve alloc and lock)\n");
            // Go's names for its allocation and contention profiles.
            case "/debug/pprof/allocs" -> profile(request.uri(), ProfileInfo.ALLOC, OutputFormat.PPROF,
                    "application/octet-stream");
            case "/debug/pprof/mutex" -> profile(request.uri(), ProfileInfo.LOCK, OutputFormat.PPROF,
                    "application/octet-stream");
            case "/flame" -> profile(request.uri(), null, OutputFormat.HTML, "text/html; charset=utf-8");
            default -> HttpResponse.text(404, "no such endpoint: " + path + "\n");
        };
    }

    /** Whether the session samples {@code cpu} or {@code wall}: its first event then (the JDK's events follow). */
    private boolean sampled() {
        String first = source.event();
        return "cpu".equals(first) || "wall".equals(first);
    }

    /** A window of {@code event}'s samples, or of the session's first event when null. */
    private HttpResponse profile(URI uri, String event, OutputFormat format, String type) throws InterruptedException {
        long seconds;
        try {
            seconds = seconds(uri);
        } catch (IllegalArgumentException e) {
            return HttpResponse.text(400, e.getMessage() + "\n");
        }
        if (!slots.tryAcquire()) {
            return HttpResponse.text(429, "already serving " + CONCURRENT + " profiles; try again later\n");
        }
        try {
            Profile profile = event == null ? source.window(seconds)
                    : hasSeconds(uri) ? source.window(seconds, event) : source.sinceStart(event);
            if (profile == null) {
                return HttpResponse.text(404, "not profiling " + event + " (start with event=" + event + ")\n");
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            ProfileFiles.write(profile, body, format, ReportOptions.DEFAULT);
            return HttpResponse.of(200, type, body.toByteArray());
        } catch (IOException e) {
            return HttpResponse.text(500, "the profile could not be written: " + e.getMessage() + "\n");
        } finally {
            slots.release();
        }
    }

    /** Whether the request names its window's length. */
    static boolean hasSeconds(URI uri) {
        String query = uri.getRawQuery();
        return query != null && !query.isEmpty();
    }

    /** The {@code seconds} parameter, 30 when absent. */
    static long seconds(URI uri) {
        String query = uri.getRawQuery();
        if (query == null || query.isEmpty()) {
            return DEFAULT_SECONDS;
        }
        long seconds = DEFAULT_SECONDS;
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            if (!key.equals("seconds")) {
                throw new IllegalArgumentException("unknown parameter '" + key + "' (expected seconds=N)");
            }
            try {
                seconds = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seconds must be a whole number, not '" + value + "'");
            }
            if (seconds < 1 || seconds > MAX_SECONDS) {
                throw new IllegalArgumentException("seconds must be between 1 and " + MAX_SECONDS);
            }
        }
        return seconds;
    }

    private String status() {
        StringBuilder sb = new StringBuilder("{\"engine\":\"").append(source.engine()).append("\",\"event\":\"")
                .append(source.event()).append("\",\"intervalNanos\":").append(source.intervalNanos())
                .append(",\"samples\":").append(source.samples()).append(",\"cost\":[");
        boolean first = true;
        for (String note : source.costNotes()) {
            sb.append(first ? "" : ",").append('"').append(note.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
            first = false;
        }
        return sb.append("]}\n").toString();
    }

    /** Stops serving at once: connections are dropped and profile windows in progress abandoned. */
    @Override
    public void close() {
        loop.close();
    }
}
