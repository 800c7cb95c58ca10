package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PushAddressTest {

    @ParameterizedTest
    @CsvSource({
        "http://collector:4318, http://collector:4318",
        "http://collector:4318/, http://collector:4318",
        "HTTPS://Collector.example/otel//, https://Collector.example/otel",
        "http://[::1]:4040, http://[::1]:4040"})
    void aBaseUrlLosesItsTrailingSlashes(String value, String base) {
        PushAddress address = PushAddress.parse("otlp", value);
        assertThat(address.base()).isEqualTo(base);
        assertThat(address.resolve("/v1development/profiles")).isEqualTo(base + "/v1development/profiles");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ftp://collector|otlp= needs an http:// or https:// URL with a host",
        "collector:4318|otlp= needs an http:// or https:// URL with a host",
        "/v1/profiles|otlp= needs an http:// or https:// URL with a host",
        "http://|otlp= needs an http:// or https:// URL with a host",
        "http://host name|otlp= needs an http:// or https:// URL with a host",
        "http://collector?x=1|otlp= takes a base URL without a query or fragment",
        "http://collector#top|otlp= takes a base URL without a query or fragment"})
    void anythingElseIsOneLineThatDoesNotEchoTheValue(String value, String message) {
        assertThatThrownBy(() -> PushAddress.parse("otlp", value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(message).hasNoCause();
    }

    @Test
    void credentialsInTheUrlAreRefusedWithoutBeingNamed() {
        assertThatThrownBy(() -> PushAddress.parse("pyroscope", "https://admin:hunter2@pyroscope:4040"))
                .hasMessageContaining("must not hold a user or password")
                .hasMessageNotContaining("hunter2").hasMessageNotContaining("admin");
    }
}
