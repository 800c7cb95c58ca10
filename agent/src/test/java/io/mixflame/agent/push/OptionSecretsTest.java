package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OptionSecretsTest {

    @Test
    void secretOptionsAndUrlCredentialsAreMasked() {
        assertThat(OptionSecrets.masked("start,otlp=http://c:4318,authtoken=t0ps3cret,loop=10s"))
                .isEqualTo("start,otlp=http://c:4318,authtoken=***,loop=10s");
        assertThat(OptionSecrets.masked("authuser=svc, authpassword=pw,pyroscope=https://u:p@ss@host/x?y"))
                .isEqualTo("authuser=svc,authpassword=***,pyroscope=https://***@host/x?y");
        assertThat(OptionSecrets.masked("file=/tmp/a@b.html,title=x://y")).isEqualTo("file=/tmp/a@b.html,title=x://y");
    }
}
