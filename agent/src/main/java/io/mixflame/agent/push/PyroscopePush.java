package io.mixflame.agent.push;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.PprofWriter;
import io.mixflame.report.ProfileWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pushes each period to Grafana Pyroscope's {@value #PATH}: one gzip'd pprof per event, named
 * {@code SERVICE{k=v,...}} by the service and the static tags, with the period's time range and, for cpu and wall,
 * the sampling rate.
 */
final class PyroscopePush implements PushTarget {
    static final String PATH = "/ingest";
    static final String CONTENT_TYPE = "application/octet-stream";
    static final String SPY_NAME = "mixflame";
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final String url;
    private final String name;
    private final ProfileWriter encoder;

    /**
     * @param name    the application's name with its labels, {@link #appName}
     * @param encoder writes one profile as a gzip'd pprof
     */
    PyroscopePush(PushAddress address, String name, ProfileWriter encoder) {
        this.url = address.resolve(PATH);
        this.name = name;
        this.encoder = encoder;
    }

    /** Pushes with {@link PprofWriter}. */
    static PyroscopePush of(PushAddress address, String service, Map<String, String> tags) {
        return new PyroscopePush(address, appName(service, tags), new PprofWriter());
    }

    /** Pyroscope's name of an application and its labels: {@code checkout{region=eu,tier=web}}. */
    static String appName(String service, Map<String, String> tags) {
        StringBuilder sb = new StringBuilder(service).append('{');
        for (Map.Entry<String, String> tag : tags.entrySet()) {
            sb.append(sb.charAt(sb.length() - 1) == '{' ? "" : ",").append(tag.getKey()).append('=')
                    .append(tag.getValue());
        }
        return sb.append('}').toString();
    }

    @Override
    public String kind() {
        return "pyroscope";
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public List<PushRequest> requests(List<Profile> profiles) throws IOException {
        List<PushRequest> requests = new ArrayList<>(profiles.size());
        for (Profile p : profiles) {
            ByteArrayOutputStream body = new ByteArrayOutputStream(64 * 1024);
            encoder.write(p, body);
            requests.add(new PushRequest(query(p.info()), CONTENT_TYPE, null, body.toByteArray()));
        }
        return requests;
    }

    private String query(ProfileInfo info) {
        // Rounded, not widened: the ranges of successive periods then meet without overlapping.
        long from = Math.round(info.startMillis() / 1000.0);
        long endMillis = info.startMillis() + info.durationNanos() / 1_000_000L;
        long until = Math.max(from + 1, Math.round(endMillis / 1000.0));
        StringBuilder sb = new StringBuilder(url).append("?name=").append(encoded(name)).append("&from=").append(from)
                .append("&until=").append(until).append("&format=pprof");
        boolean weighed = info.event().equals(ProfileInfo.ALLOC) || info.event().equals(ProfileInfo.LOCK);
        if (!weighed && info.intervalNanos() > 0) {
            long hz = Math.max(1, Math.round((double) NANOS_PER_SECOND / info.intervalNanos()));
            sb.append("&sampleRate=").append(hz);
        }
        return sb.append("&spyName=").append(SPY_NAME).toString();
    }

    /** A query value, a space as {@code %20}: not every server reads {@code +} as one. */
    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
