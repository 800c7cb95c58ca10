package io.mixflame.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileHttpServerTest {

    @Test
    void theCpuPathServesTheSampledEventAndRefusesASessionOfTheJdksEventsOnly() throws Exception {
        Source allocOnly = new Source("alloc", List.of("alloc"));
        try (ProfileHttpServer server = ProfileHttpServer.start(HttpAddress.parse("0"), allocOnly)) {
            HttpResponse<String> r = get(server, "/debug/pprof/profile?seconds=1");
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(r.body()).startsWith("not profiling cpu or wall").endsWith("\n").hasLineCount(1);
            assertThat(allocOnly.asked).as("no window was taken").isEmpty();
            assertThat(get(server, "/debug/pprof/allocs?seconds=1").statusCode()).isEqualTo(200);
            assertThat(allocOnly.asked).containsExactly("alloc");
        }
        Source wallAndLock = new Source("wall", List.of("wall", "lock"));
        try (ProfileHttpServer server = ProfileHttpServer.start(HttpAddress.parse("0"), wallAndLock)) {
            assertThat(get(server, "/debug/pprof/profile?seconds=1").statusCode()).isEqualTo(200);
            assertThat(wallAndLock.asked).containsExactly("wall");
        }
    }

    private static HttpResponse<String> get(ProfileHttpServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A session of {@code events}, the first sampled or the JDK's; records which event each window was of. */
    private static final class Source implements ProfileWindowSource {
        final String first;
        final List<String> events;
        final List<String> asked = new ArrayList<>();

        Source(String first, List<String> events) {
            this.first = first;
            this.events = events;
        }

        @Override
        public Profile window(long seconds) {
            return window(seconds, first);
        }

        @Override
        public synchronized Profile window(long seconds, String event) {
            if (!events.contains(event)) {
                return null;
            }
            asked.add(event);
            return Profile.empty(new ProfileInfo("test", event, 10_000_000L, 1_700_000_000_000L, 1_000_000_000L,
                    List.of()));
        }

        @Override
        public Profile sinceStart(String event) {
            return window(0, event);
        }

        @Override
        public String engine() {
            return "test";
        }

        @Override
        public String event() {
            return first;
        }

        @Override
        public long intervalNanos() {
            return 10_000_000L;
        }

        @Override
        public long samples() {
            return 0;
        }

        @Override
        public List<String> costNotes() {
            return List.of();
        }
    }
}
