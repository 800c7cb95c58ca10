package io.mixflame.agent.push;

import io.mixflame.profile.Profile;
import io.mixflame.report.OtlpResource;
import io.mixflame.report.OtlpWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Pushes each period to an OpenTelemetry collector: all of its events in one {@code ExportProfilesServiceRequest},
 * POSTed gzip'd to {@value #PATH} under the collector's address.
 */
final class OtlpPush implements PushTarget {
    /** The profiles signal's path; it moves to {@code /v1/profiles} when the signal is stable. */
    static final String PATH = "/v1development/profiles";
    static final String CONTENT_TYPE = "application/x-protobuf";
    private static final int BUFFER = 64 * 1024;

    /** Writes one period's profiles as one uncompressed message. */
    interface Encoder {
        void write(List<Profile> profiles, OutputStream out) throws IOException;
    }

    private final String url;
    private final Encoder encoder;

    OtlpPush(PushAddress address, Encoder encoder) {
        this.url = address.resolve(PATH);
        this.encoder = encoder;
    }

    /** Pushes with {@link OtlpWriter}, which is loaded at the first period, on the push thread. */
    static OtlpPush of(PushAddress address, OtlpResource resource) {
        return new OtlpPush(address, new Encoder() {
            @Override
            public void write(List<Profile> profiles, OutputStream out) throws IOException {
                new OtlpWriter(resource).write(profiles, out);
            }
        });
    }

    @Override
    public String kind() {
        return "otlp";
    }

    @Override
    public String url() {
        return url;
    }

    @Override
    public List<PushRequest> requests(List<Profile> profiles) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(BUFFER);
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes, BUFFER)) {
            encoder.write(profiles, gz);
        }
        return List.of(new PushRequest(url, CONTENT_TYPE, "gzip", bytes.toByteArray()));
    }
}
