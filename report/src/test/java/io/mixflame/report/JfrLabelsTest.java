package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.profile.Frame;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JfrLabelsTest {

    private static String format(Frame... labels) {
        return JfrLabels.format(labels, 0, labels.length);
    }

    @Test
    void pairsAreJoinedByACommaAndASpace() {
        assertThat(format(Frame.label("endpoint", "/checkout"), Frame.label("tenant", "acme")))
                .isEqualTo("endpoint=/checkout, tenant=acme");
    }

    @Test
    void noLabelsIsNoText() {
        assertThat(format()).isNull();
        assertThat(JfrLabels.format(new Frame[] {Frame.thread("t", 1)}, 1, 1)).isNull();
    }

    @Test
    void commasAndBackslashesOfValuesAreEscaped() {
        assertThat(format(Frame.label("q", "a, b=c\\d"), Frame.label("r", "")))
                .isEqualTo("q=a\\, b=c\\\\d, r=");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a, b=c", "x\\", "\\,", ",", ", k=v", "=", "a=b=c", "]", "\"quoted\"", "<script>", ""})
    void everyValueReadsBackAsItWas(String value) {
        Frame[] labels = {Frame.label("a", value), Frame.label("b", value + "2")};

        assertThat(JfrLabels.parse(format(labels), 16)).containsExactly(labels);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "k=v                    | [k=v]",
        "a=1,b=2                | [a=1] [b=2]",
        "no pair, k=v           | [k=v]",
        "1k=v, k=w              | [k=w]",
        "k=dangling\\           | [k=dangling\\]",
        ",, , k=v               | [k=v]",
    })
    void textOfAnotherWriterGivesTheLabelsItCanAndSkipsTheRest(String text, String expected) {
        List<String> names = JfrLabels.parse(text, 16).stream().map(Frame::name).toList();

        assertThat(String.join(" ", names)).isEqualTo(expected);
    }

    @Test
    void nullOrEmptyTextIsNoLabels() {
        assertThat(JfrLabels.parse(null, 16)).isEmpty();
        assertThat(JfrLabels.parse("", 16)).isEmpty();
    }

    @Test
    void moreLabelsThanAllowedFail() {
        assertThat(JfrLabels.parse("a=1, b=2", 2)).hasSize(2);
        assertThatThrownBy(() -> JfrLabels.parse("a=1, b=2, c=3", 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
