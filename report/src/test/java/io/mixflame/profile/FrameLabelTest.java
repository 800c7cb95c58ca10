package io.mixflame.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FrameLabelTest {

    @Test
    void aLabelIsABracketedKeyAndValueOfItsOwnType() {
        Frame label = Frame.label("endpoint", "/checkout");

        assertThat(label.name()).isEqualTo("[endpoint=/checkout]");
        assertThat(label.type()).isEqualTo(FrameType.LABEL);
        assertThat(label.labelKey()).isEqualTo("endpoint");
        assertThat(label.labelValue()).isEqualTo("/checkout");
        assertThat(label.module()).isNull();
    }

    @Test
    void theValueMayHoldEqualsSignsAndClosingBracketsAndBeEmpty() {
        Frame label = Frame.label("q", "a=b]c=");

        assertThat(label.name()).isEqualTo("[q=a=b]c=]");
        assertThat(label.labelKey()).isEqualTo("q");
        assertThat(label.labelValue()).isEqualTo("a=b]c=");
        assertThat(Frame.label("k", "").labelValue()).isEmpty();
    }

    @Test
    void labelsAreEqualByKeyAndValueAndNotEqualToAMarkerOfTheSameName() {
        Frame a = Frame.label("tenant", "acme");

        assertThat(a).isEqualTo(Frame.label("tenant", "acme")).hasSameHashCodeAs(Frame.label("tenant", "acme"));
        assertThat(a).isNotEqualTo(Frame.label("tenant", "other"))
                .isNotEqualTo(new Frame("[tenant=acme]", FrameType.MARKER));
    }

    @ParameterizedTest
    @ValueSource(strings = {"endpoint", "_x", "http.route", "a-b", "tenant_id", "A9",
            "k123456789012345678901234567890123456789012345678901234567890123"})
    void keysOfTheKeyPatternAreTaken(String key) {
        assertThat(Frame.isLabelKey(key)).isTrue();
        assertThat(Frame.label(key, "v").labelKey()).isEqualTo(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1a", ".a", "-a", "a b", "a=b", "a]", "a,b", "é", "a\n",
            "k1234567890123456789012345678901234567890123456789012345678901234"})
    void otherKeysAreRefused(String key) {
        assertThat(Frame.isLabelKey(key)).isFalse();
        assertThatThrownBy(() -> Frame.label(key, "v")).isInstanceOf(IllegalArgumentException.class)
                .message().doesNotContain("\n");
    }

    @Test
    void aNullKeyIsNoKey() {
        assertThat(Frame.isLabelKey(null)).isFalse();
        assertThatThrownBy(() -> Frame.label(null, "v")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void controlCharactersOfTheValueBecomeSpaces() {
        Frame label = Frame.label("k", "a\nb\rc\td\u0000e\u007ff\u0085g");

        assertThat(label.labelValue()).isEqualTo("a b c d e f g");
    }

    @Test
    void aValueOfTheMostCharactersIsKeptWhole() {
        String value = "v".repeat(Frame.MAX_LABEL_VALUE);

        assertThat(Frame.label("k", value).labelValue()).isEqualTo(value);
    }

    @Test
    void aLongerValueKeepsItsFirst127CharactersAndAnEllipsis() {
        String value = "0123456789".repeat(1000);

        String kept = Frame.label("k", value).labelValue();

        assertThat(kept).hasSize(Frame.MAX_LABEL_VALUE).endsWith("\u2026")
                .isEqualTo(value.substring(0, Frame.MAX_LABEL_VALUE - 1) + "\u2026");
    }

    @Test
    void cuttingNeverSplitsASurrogatePair() {
        String value = "x".repeat(Frame.MAX_LABEL_VALUE - 2) + "\uD83D\uDE00" + "tail";

        String kept = Frame.label("k", value).labelValue();

        assertThat(kept).isEqualTo("x".repeat(Frame.MAX_LABEL_VALUE - 2) + "\u2026");
        assertThat(Character.isHighSurrogate(kept.charAt(kept.length() - 2))).isFalse();
    }

    @Test
    void otherFramesHaveNoLabelKeyOrValue() {
        Frame thread = Frame.thread("main", 1);

        assertThatThrownBy(thread::labelKey).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(Frame.UNKNOWN::labelValue).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"endpoint", "[endpoint]", "[=x]", "[1k=x]", "[k=x", "k=x]", "[a b=x]"})
    void aLabelFrameMadeFromAnyOtherNameIsRefused(String name) {
        assertThatThrownBy(() -> new Frame(name, FrameType.LABEL)).isInstanceOf(IllegalArgumentException.class);
        // The same name is fine for a marker: only labels promise a key and a value.
        assertThat(new Frame(name, FrameType.MARKER).name()).isEqualTo(name);
    }

    @Test
    void aLabelFrameMadeFromAWellFormedNameIsTheLabel() {
        assertThat(new Frame("[endpoint=/a]", FrameType.LABEL)).isEqualTo(Frame.label("endpoint", "/a"));
    }
}
