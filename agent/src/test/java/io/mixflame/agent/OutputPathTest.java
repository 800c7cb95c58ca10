package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(OutputPath.expandNow("/tmp/p-%p-%e.html", "alloc", 42, false)).isEqualTo(Path.of("/tmp/p-42-alloc.html"));
        assertThat(OutputPath.expandNow("/tmp/p-%t.html", "cpu", 42, false).toString()).matches("/tmp/p-\\d{8}-\\d{6}\\.html");
        assertThat(OutputPath.expandNow("out.jfr", "cpu", 1, true).toString()).as("looping").matches("out-\\d{8}-\\d{6}\\.jfr");
    }
}
