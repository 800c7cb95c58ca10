package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PushAuthTest {
    private static final Map<String, String> NO_ENV = Map.of();

    @Test
    void aTokenIsABearerAndAUserWithPasswordIsBasic() {
        assertThat(PushAuth.resolve("t0k", null, null, NO_ENV).header()).isEqualTo("Bearer t0k");
        assertThat(PushAuth.resolve(null, "svc", "pa:ss", NO_ENV).header()).isEqualTo("Basic "
                + Base64.getEncoder().encodeToString("svc:pa:ss".getBytes(StandardCharsets.UTF_8)));
        assertThat(PushAuth.resolve(null, null, null, NO_ENV).header()).isNull();
        assertThat(PushAuth.resolve(null, null, null, NO_ENV).isNone()).isTrue();
    }

    @Test
    void theEnvironmentStandsInForOptionsNotGivenAndTheOptionsWin() {
        Map<String, String> env = Map.of(PushAuth.TOKEN_ENV, "env-token", PushAuth.USER_ENV, "env-user",
                PushAuth.PASSWORD_ENV, "env-password");
        assertThat(PushAuth.resolve(null, null, null, env).header()).isEqualTo("Bearer env-token");
        assertThat(PushAuth.resolve("opt-token", null, null, env).header()).isEqualTo("Bearer opt-token");
        assertThat(PushAuth.resolve(null, "opt-user", null, env).header()).isEqualTo("Basic "
                + Base64.getEncoder().encodeToString("opt-user:env-password".getBytes(StandardCharsets.UTF_8)));
        assertThat(PushAuth.resolve(null, null, null, Map.of(PushAuth.USER_ENV, "u", PushAuth.PASSWORD_ENV, "p"))
                .header()).startsWith("Basic ");
    }

    @Test
    void incompleteOrConflictingCredentialsAreRefusedWithoutNamingThem() {
        assertThatThrownBy(() -> PushAuth.resolve(null, "svc", null, NO_ENV))
                .hasMessage("authuser= needs a password: authpassword= (or MIXFLAME_AUTH_PASSWORD)");
        assertThatThrownBy(() -> PushAuth.resolve(null, null, "secret-pw", NO_ENV))
                .hasMessageStartingWith("authpassword= needs a user").hasMessageNotContaining("secret-pw");
        assertThatThrownBy(() -> PushAuth.resolve("secret-token", "svc", "secret-pw", NO_ENV))
                .hasMessageContaining("both given").hasMessageNotContaining("secret");
        assertThatThrownBy(() -> PushAuth.resolve(null, null, null, Map.of(PushAuth.PASSWORD_ENV, "secret-pw")))
                .hasMessageContaining(PushAuth.USER_ENV).hasMessageNotContaining("secret-pw");
        assertThatThrownBy(() -> PushAuth.resolve("secret-token\r\nX-Evil: 1", null, null, NO_ENV))
                .hasMessage("authtoken= holds a control character");
    }

    @Test
    void toStringMasksAndRedactRemovesEverySecret() {
        PushAuth bearer = PushAuth.resolve("secret-token", null, null, NO_ENV);
        PushAuth basic = PushAuth.resolve(null, "svc", "secret-pw", NO_ENV);
        assertThat(bearer).hasToString("bearer ***");
        assertThat(basic).hasToString("basic ***");
        String header = basic.header().substring("Basic ".length());
        assertThat(basic.redact("echo: secret-pw / " + header)).isEqualTo("echo: *** / ***");
        assertThat(bearer.redact("Bearer secret-token")).isEqualTo("Bearer ***");
    }
}
