package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CollapsedFramesTest {

    @Test
    void sanitizeKeepsAPlainNameAsItIs() {
        String name = "java/util/HashMap.get — ünïcode";

        assertThat(CollapsedFrames.sanitize(name)).isSameAs(name);
    }

    @Test
    void sanitizeReplacesTheSeparatorAndLineBreaks() {
        assertThat(CollapsedFrames.sanitize("a;b\nc\rd")).isEqualTo("a:b c d");
    }

    @Test
    void sanitizeReplacesEveryControlCharacter() {
        StringBuilder name = new StringBuilder("x");
        for (char c = 0; c < 0x20; c++) {
            name.append(c);
        }
        name.append('\u007f').append("y");

        String sanitized = CollapsedFrames.sanitize(name.toString());

        assertThat(sanitized).hasSize(name.length()).startsWith("x").endsWith("y");
        assertThat(sanitized.chars().filter(c -> c < 0x20 || c == 0x7f)).isEmpty();
        assertThat(sanitized.substring(1, sanitized.length() - 1)).matches(" {33}");
    }

    @Test
    void sanitizeLeavesOtherCharactersAlone() {
        assertThat(CollapsedFrames.sanitize("\u0000a\u00a0b\u2028c")).isEqualTo(" a\u00a0b\u2028c");
    }
}
