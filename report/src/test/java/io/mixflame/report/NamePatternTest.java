package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NamePatternTest {

    @ParameterizedTest
    @CsvSource({
        // async-profiler's globs: a star at either end or both, matching the whole name
        "java/*,                java/util/HashMap.get,        true",
        "java/*,                sun/java/Foo.bar,             false",
        "*Unsafe.park*,         jdk/internal/misc/Unsafe.park, true",
        "*.compress,            a/Zip.compress,               true",
        "*.compress,            a/Zip.compressMore,           false",
        "app/*.run,             app/x/Y.run,                  true",
        "app/*.run,             app/x/Y.runner,               false",
        // regular expressions: found anywhere in the name
        "HashMap,               java/util/HashMap.get,        true",
        "^java/util/,           java/util/HashMap.get,        true",
        "^java/util/,           sun/java/util/X.y,            false",
        "alpha.*,               a/Cpu.alpha,                  true",
        "Hash.*Map,             java/util/HashMap.get,        true",
        "[a-z]*Map,             HashMap,                      true",
    })
    void matchesAsGlobOrRegularExpression(String pattern, String name, boolean matches) {
        assertThat(NamePattern.parse(pattern).matches(name)).isEqualTo(matches);
    }

    @ParameterizedTest
    @CsvSource({
        "java/*, true", "*Foo*, true", "a*b, true",
        "alpha.*, false", "(ab)*, false", "[ab]*, false", "a{2}*, false", "a\\*, false", "a+*, false",
        "Foo, false", "^Foo$, false",
    })
    void aStarThatCannotRepeatATokenMakesAGlob(String pattern, boolean glob) {
        assertThat(NamePattern.isGlob(pattern)).isEqualTo(glob);
    }

    @ParameterizedTest
    @CsvSource({"a.b*, a.b.c, true", "a.b*, axb.c, false", "*(x), f(x), true", "*[1], a[1], true", "*[1], a1, false"})
    void aGlobTakesEverythingButTheStarLiterally(String glob, String name, boolean matches) {
        assertThat(NamePattern.parse(glob).matches(name)).isEqualTo(matches);
    }

    @org.junit.jupiter.api.Test
    void badPatternsAreOneLine() {
        assertThatThrownBy(() -> NamePattern.parse("[unclosed"))
                .hasMessage("'[unclosed' is not a valid regular expression: Unclosed character class");
        assertThatThrownBy(() -> NamePattern.parse("")).hasMessage("empty pattern");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // A label frame's spelling is a glob, not a character class: the whole name, literally.
        "[endpoint=/a]       | [endpoint=/a]        | true",
        "[endpoint=/a]       | [endpoint=/ab]       | false",
        "[endpoint=/a]       | endpoint             | false",
        "[endpoint=/a]       | a/B.c                | false",
        "[endpoint=/api/*]   | [endpoint=/api/cart] | true",
        "[endpoint=/api/*]   | [endpoint=/web/cart] | false",
        "[endpoint=a.*]      | [endpoint=a.b]       | true",
        "[endpoint=a.*]      | [endpoint=ab]        | false",
        "[endpoint=*]        | [endpoint=]          | true",
        // Not a label key: the regular expression (here a character class) it always was.
        "[a b=c]             | xa                   | true",
    })
    void aPatternSpelledAsALabelFrameMatchesThatFrame(String pattern, String name, boolean matches) {
        assertThat(NamePattern.parse(pattern).matches(name)).isEqualTo(matches);
    }
}

