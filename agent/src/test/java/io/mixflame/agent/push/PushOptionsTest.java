package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.process.OwnPid;
import io.mixflame.report.OtlpResource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PushOptionsTest {

    @Test
    void theResourceNamesTheServiceTheProcessAndTheTags() {
        PushOptions options = PushOptions.of(PushAddress.parse("otlp", "http://c:4318"), null, "check out",
                PushTags.parse("region=eu;process.pid=override"), null, null, null, Map.of());
        OtlpResource resource = options.resource();
        assertThat(resource.serviceName()).isEqualTo("check_out");
        assertThat(resource.attributes()).containsEntry("region", "eu")
                .containsEntry("process.pid", "override")
                .containsEntry("process.runtime.version", System.getProperty("java.runtime.version"))
                .containsKey("process.runtime.name");
        assertThat(PushOptions.NONE.resource().attributes())
                .containsEntry("process.pid", Long.toString(OwnPid.get()));
        assertThat(options.describe()).isEqualTo("otlp http://c:4318");
        assertThat(options.pushes()).isTrue();
        assertThat(PushOptions.NONE.pushes()).isFalse();
    }

    @Test
    void credentialsNeedATargetAndTheEnvironmentIsReadOnlyWithOne() {
        assertThatThrownBy(() -> PushOptions.of(null, null, null, Map.of(), "secret", null, null, Map.of()))
                .hasMessage("authtoken=, authuser= and authpassword= go with otlp= or pyroscope=");
        Map<String, String> env = Map.of(PushAuth.PASSWORD_ENV, "only-a-password");
        assertThat(PushOptions.of(null, null, null, Map.of(), null, null, null, env).auth().isNone()).isTrue();
        PushOptions pushing = PushOptions.of(null, PushAddress.parse("pyroscope", "http://p:4040"), null, Map.of(),
                null, null, null, Map.of(PushAuth.TOKEN_ENV, "env-secret"));
        assertThat(pushing.auth().header()).isEqualTo("Bearer env-secret");
        assertThat(pushing.toString()).doesNotContain("env-secret").contains("bearer ***");
    }
}
