package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class OutputPathTest {
    private static final LocalDateTime TIME = LocalDateTime.of(2026, 11, 22, 9, 5, 7);

    @Test
    void expandsPidAndTime() {
        assertThat(OutputPath.expand("/tmp/p-%p-%t.html", 42, TIME, false))
                .isEqualTo(Path.of("/tmp/p-42-20261122-090507.html"));
    }

    @Test
    void loopWithoutTimeGetsOneBeforeTheExtension() {
        assertThat(OutputPath.expand("out.pb.gz", 1, TIME, true)).isEqualTo(Path.of("out-20261122-090507.pb.gz"));
        assertThat(OutputPath.expand("out.collapsed", 1, TIME, true))
                .isEqualTo(Path.of("out-20261122-090507.collapsed"));
        assertThat(OutputPath.expand("out.otlp", 1, TIME, true)).isEqualTo(Path.of("out-20261122-090507.otlp"));
    }

    @Test
    void eventNamesTheFileOfEachEvent() {
        assertThat(OutputPath.expand("out-%e.html", "alloc", 1, TIME, false)).isEqualTo(Path.of("out-alloc.html"));
        assertThat(OutputPath.expand(OutputPath.perEvent("out.pb.gz"), "lock", 1, TIME, false))
                .isEqualTo(Path.of("out-lock.pb.gz"));
        assertThat(OutputPath.perEvent("p-%e-%p.collapsed")).isEqualTo("p-%e-%p.collapsed");
    }

    @Test
    void singleProfileKeepsItsName() {
        assertThat(OutputPath.expand("out.html", 1, TIME, false)).isEqualTo(Path.of("out.html"));
    }

    @Test
    void unusedNeverNamesAFileThatExists(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path first = dir.resolve("out-20261122-090507.collapsed");
        assertThat(OutputPath.unused(first)).isEqualTo(first);
        java.nio.file.Files.writeString(first, "x");
        Path second = OutputPath.unused(first);
        assertThat(second).isEqualTo(dir.resolve("out-20261122-090507-1.collapsed"));
        java.nio.file.Files.writeString(second, "x");
        assertThat(OutputPath.unused(first)).isEqualTo(dir.resolve("out-20261122-090507-2.collapsed"));
    }

    @Test
    void nowIsReadOnlyForANameWithATime() {
        assertThat(OutputPath.expandNow("/tmp/p-%p-%e.html", "alloc", 42, false, 0)).isEqualTo(Path.of("/tmp/p-42-alloc.html"));
        assertThat(OutputPath.expandNow("/tmp/p-%t.html", "cpu", 42, false, 0).toString()).matches("/tmp/p-\\d{8}-\\d{6}\\.html");
        assertThat(OutputPath.expandNow("out.jfr", "cpu", 1, true, 0).toString()).as("looping").matches("out-\\d{8}-\\d{6}\\.jfr");
    }

    @Test
    void theStampGoesBeforeEveryExtensionAFormatIsToldByInAnyCase() {
        assertThat(OutputPath.expand("x.folded", 1, TIME, true)).isEqualTo(Path.of("x-20261122-090507.folded"));
        assertThat(OutputPath.expand("x.HTML", 1, TIME, true)).isEqualTo(Path.of("x-20261122-090507.HTML"));
        assertThat(OutputPath.expand("x.Pb.Gz", 1, TIME, true)).isEqualTo(Path.of("x-20261122-090507.Pb.Gz"));
        assertThat(OutputPath.expand(OutputPath.perEvent("x.TXT"), "alloc", 1, TIME, false))
                .isEqualTo(Path.of("x-alloc.TXT"));
    }

    @Test
    void sequenceNumbersWrapAtTheirMostAndStandInForTheStampOfALoop() {
        assertThat(OutputPath.expand("p-%n{3}.jfr", "cpu", 1, null, true, 7, name -> null))
                .isEqualTo(Path.of("p-1.jfr"));
        assertThat(OutputPath.expand("p-%n.jfr", "cpu", 1, null, true, 7, name -> null)).isEqualTo(Path.of("p-7.jfr"));
        assertThat(OutputPath.expandNow("p-%n{48}.collapsed", "cpu", 1, true, 49))
                .isEqualTo(Path.of("p-1.collapsed"));
    }

    @Test
    void environmentVariablesAndPercentSignsExpand() {
        java.util.function.UnaryOperator<String> env = name -> name.equals("HOSTNAME") ? "pod-7" : null;
        assertThat(OutputPath.expand("/d/%{HOSTNAME}-%{UNSET}-%p-100%%-%q.html", "cpu", 9, TIME, false, 0, env))
                .isEqualTo(Path.of("/d/pod-7--9-100%-%q.html"));
        assertThat(OutputPath.expand("/d/%%t.html", "cpu", 9, TIME, false, 0, env)).isEqualTo(Path.of("/d/%t.html"));
    }

    @Test
    void malformedSequencesAndVariablesAreRefusedInOneLine() {
        OutputPath.check("p-%n{10}-%{HOME}-%t-%%{x.html");
        assertThatThrownBy(() -> OutputPath.check("p-%n{ten}.html")).hasMessageContaining("%n{ten}")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> OutputPath.check("p-%n{0}.html")).hasMessageContaining("positive");
        assertThatThrownBy(() -> OutputPath.check("p-%{HOME.html")).hasMessageContaining("no closing");
        assertThatThrownBy(() -> OutputPath.check("p-%{}.html")).hasMessageContaining("variable's name");
        assertThatThrownBy(() -> AgentOptions.parse("file=p-%n{x}.html")).hasMessageStartingWith("file=p-%n{x}.html: ");
    }
}
