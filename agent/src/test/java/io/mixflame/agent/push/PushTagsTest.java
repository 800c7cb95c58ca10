package io.mixflame.agent.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PushTagsTest {

    @Test
    void tagsKeepTheirOrder() {
        assertThat(PushTags.parse("region=eu-west;deployment.environment=prod;_team=Web Shop/2"))
                .containsExactly(Map.entry("region", "eu-west"), Map.entry("deployment.environment", "prod"),
                        Map.entry("_team", "Web Shop/2"));
        assertThat(PushTags.parse("a=1;")).containsOnlyKeys("a");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1region=eu|tags=: key '1region' is not [A-Za-z_][A-Za-z0-9_.]*",
        "re-gion=eu|tags=: key 're-gion' is not",
        "region|the value of region must be 1 to 256 characters",
        "region=|the value of region must be 1 to 256 characters",
        "region=e{u}|the value of region must be",
        "region=a=b|the value of region must be",
        "region=eu;region=us|tags=: region given twice",
        "service.name=x|tags=: service.name is set by service="})
    void badTagsAreOneLine(String value, String message) {
        assertThatThrownBy(() -> PushTags.parse(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void controlCharactersAndTooManyTagsAreRefused() {
        assertThatThrownBy(() -> PushTags.parse("k=a\u0007b")).hasMessageContaining("control characters");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i <= PushTags.MAX_TAGS; i++) {
            many.append("k").append(i).append("=v;");
        }
        assertThatThrownBy(() -> PushTags.parse(many.toString())).hasMessage("tags=: more than 32 tags");
    }
}
