package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.agent.push.PushHeaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartupOptionsTest {
    @TempDir
    Path dir;

    private static StartupOptions.Composed premain(String text, Map<String, String> env) {
        return StartupOptions.compose(text, true, env, new Properties());
    }

    @Test
    void theCommandLineWinsOverTheEnvironmentWhichWinsOverPyroscopesSettings() {
        StartupOptions.Composed c = premain("interval=5ms,flamegraph", Map.of(
                "MIXFLAME_OPTIONS", "interval=20ms,threads,collapsed,file=/tmp/x.txt",
                "PYROSCOPE_SERVER_ADDRESS", "http://p:4040", "PYROSCOPE_PROFILING_INTERVAL", "1ms"));
        assertThat(c.text().split(",")).containsExactly("interval=5ms", "flamegraph", "threads", "file=/tmp/x.txt",
                "pyroscope=http://p:4040", "loop=10s");
        assertThat(c.notes()).anyMatch(n -> n.contains("MIXFLAME_OPTIONS")).anyMatch(n -> n.contains("Pyroscope"));
        assertThat(StartupOptions.compose("interval=5ms", false, Map.of("MIXFLAME_OPTIONS", "threads"),
                new Properties()).text()).as("an attach reads no environment").isEqualTo("interval=5ms");
    }

    @Test
    void anOptionsFileSetsWhatItsTextDoesNot() throws Exception {
        Path file = dir.resolve("mixflame.options");
        Files.writeString(file, "# profiling for the image\nevent=wall   # the clock\ninterval=50ms,threads\n\n",
                StandardCharsets.UTF_8);
        assertThat(premain("start,interval=20ms,options=@" + file, Map.of()).text())
                .isEqualTo("start,interval=20ms,event=wall,threads");
        assertThat(premain(null, Map.of("MIXFLAME_OPTIONS", "options=@" + file)).text())
                .isEqualTo("event=wall,interval=50ms,threads");
        assertThatThrownBy(() -> premain("options=@" + dir.resolve("missing"), Map.of()))
                .hasMessageContaining("cannot be read").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> premain("options=" + file, Map.of())).hasMessageContaining("@PATH");
        Files.write(file, new byte[StartupOptions.MAX_FILE_BYTES + 1]);
        assertThatThrownBy(() -> premain("options=@" + file, Map.of())).hasMessageContaining("larger than");
    }

    @Test
    void pyroscopesAgentSettingsAreItsOptions() {
        Map<String, String> env = Map.of(
                "PYROSCOPE_SERVER_ADDRESS", "https://profiles.example:4040",
                "PYROSCOPE_APPLICATION_NAME", "checkout{zone=a}",
                "PYROSCOPE_LABELS", "region=eu-west, env = prod,bad label=x,noequals",
                "PYROSCOPE_TENANT_ID", "team-7",
                "PYROSCOPE_UPLOAD_INTERVAL", "15s",
                "PYROSCOPE_PROFILER_EVENT", "ITIMER",
                "PYROSCOPE_AUTH_TOKEN", "t0ken",
                "PYROSCOPE_HTTP_HEADERS", "{\"X-Api-Key\": \"k\\u0031\"}",
                "PYROSCOPE_JAVA_STACK_DEPTH_MAX", "4096");
        StartupOptions.Composed c = premain("", env);
        assertThat(c.text().split(",")).containsExactly("pyroscope=https://profiles.example:4040",
                "service=checkout", "tags=env=prod;region=eu-west;zone=a", "loop=15s", "event=itimer",
                "authtoken=t0ken", "tenant=team-7", "header=X-Api-Key:k1");
        assertThat(c.notes()).anyMatch(n -> n.contains("'bad label=x'")).anyMatch(n -> n.contains("'noequals'"))
                .anyMatch(n -> n.contains("ignored Pyroscope's PYROSCOPE_JAVA_STACK_DEPTH_MAX"));
        AgentOptions options = AgentOptions.parse(c.text());
        assertThat(options.push().pyroscope()).isNotNull();
        assertThat(options.push().headers().headers()).containsEntry(PushHeaders.TENANT, "team-7")
                .containsEntry("X-Api-Key", "k1");
        assertThat(options.push().headers().toString()).doesNotContain("team-7", "k1");
        assertThat(options.loopNanos()).isEqualTo(15_000_000_000L);
    }

    @Test
    void propertiesWinOverTheEnvironmentAndTheDefaultsArePyroscopes() {
        Properties system = new Properties();
        system.setProperty("pyroscope.application.name", "from-property");
        StartupOptions.Composed c = StartupOptions.compose(null, true,
                Map.of("PYROSCOPE_APPLICATION_NAME", "from-env", "PYROSCOPE_BASIC_AUTH_USER", "u",
                        "PYROSCOPE_BASIC_AUTH_PASSWORD", "p", "PYROSCOPE_AUTH_TOKEN", "t"), system);
        assertThat(c.text().split(",")).containsExactly("pyroscope=http://localhost:4040", "service=from-property",
                "loop=10s", "authuser=u", "authpassword=p");
        assertThat(c.notes()).anyMatch(n -> n.contains("PYROSCOPE_AUTH_TOKEN is ignored"));
        assertThat(premain("", Map.of("PYROSCOPE_LABELS", "a=b")).text()).as("neither server nor name: unused")
                .isEmpty();
    }

    @Test
    void aDisabledPyroscopeAgentStartsNothingUnlessAskedOtherwise() {
        Map<String, String> off = Map.of("PYROSCOPE_AGENT_ENABLED", "false", "PYROSCOPE_SERVER_ADDRESS", "http://p");
        assertThat(premain("", off).enabled()).isFalse();
        StartupOptions.Composed asked = premain("event=wall", off);
        assertThat(asked.enabled()).isTrue();
        assertThat(asked.text()).isEqualTo("event=wall");
    }

    @Test
    void headersAreCheckedAndMasked() {
        assertThat(PushHeaders.of(java.util.List.of("X-A: 1", "X-B:two"), "t").headers())
                .containsExactly(Map.entry("X-A", "1"), Map.entry("X-B", "two"), Map.entry("X-Scope-OrgID", "t"));
        assertThatThrownBy(() -> PushHeaders.of(java.util.List.of("Authorization:x"), null))
                .hasMessageContaining("authtoken=");
        assertThatThrownBy(() -> PushHeaders.of(java.util.List.of("X-A:secret\u0001"), null))
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> PushHeaders.of(java.util.List.of("x-a:1", "X-A:2"), null))
                .hasMessageContaining("given twice");
        assertThatThrownBy(() -> AgentOptions.parse("tenant=t")).hasMessageContaining("go with otlp= or pyroscope=");
        assertThat(AgentEntry.shown("pyroscope=http://p,header=X-Api-Key:s3cret,tenant=t"))
                .doesNotContain("s3cret").contains("header=X-Api-Key:***");
    }

    @Test
    void aJsonObjectOfStrings() {
        assertThat(JsonStringObject.parse(" { \"a\" : \"1\" , \"b\":\"q\\\"uote\" } "))
                .containsExactly(Map.entry("a", "1"), Map.entry("b", "q\"uote"));
        assertThat(JsonStringObject.parse("{}")).isEmpty();
        for (String bad : new String[] {"{\"a\":1}", "{\"a\":\"1\"", "[\"a\"]", "{\"a\":\"1\"} x", "{\"a\":\"\\q\"}"}) {
            assertThatThrownBy(() -> JsonStringObject.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
