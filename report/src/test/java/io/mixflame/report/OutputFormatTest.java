package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class OutputFormatTest {

    @ParameterizedTest
    @CsvSource({
        "out.collapsed, COLLAPSED",
        "out.folded, COLLAPSED",
        "OUT.FOLDED, COLLAPSED",
        "dir/out.txt, COLLAPSED",
        "/tmp/flame.html, HTML",
        "FLAME.HTML, HTML",
        "profile.pb.gz, PPROF",
        "profile.pprof, PPROF",
        "profile.jfr, JFR",
        "profile.otlp, OTLP",
        "PROFILE.OTLP, OTLP",
    })
    void picksTheFormatFromTheExtension(String path, OutputFormat expected) {
        assertThat(OutputFormat.fromPath(path)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"out.svg", "out.gz", "out", "out.html.bak", "collapsed"})
    void rejectsOtherNamesWithOneLineNamingTheFileAndTheChoices(String path) {
        assertThatThrownBy(() -> OutputFormat.fromPath(path))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + path + "'")
                .hasMessageContaining(".collapsed, .folded, .txt, .html, .pb.gz, .pprof, .jfr or .otlp")
                .message().doesNotContain("\n");
    }
}
