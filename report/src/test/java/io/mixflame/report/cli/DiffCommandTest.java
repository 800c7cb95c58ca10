package io.mixflame.report.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.report.TestProfiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffCommandTest {

    @TempDir
    Path dir;

    private Path before;
    private Path after;

    @BeforeEach
    void writeInputs() throws IOException {
        before = Files.writeString(dir.resolve("before.collapsed"), "main;a 10\nmain;b 10\n");
        after = Files.writeString(dir.resolve("after.collapsed"), "main;a 30\nmain;c 10\n");
    }

    private CliRun diff(String... args) {
        return CliRun.of(DiffCommand::run, args);
    }

    @Test
    void writesAFlameGraphOfTheLaterShape() throws IOException {
        Path out = dir.resolve("diff.html");

        CliRun run = diff(before.toString(), after.toString(), out.toString());

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(TestProfiles.parseHtml(Files.readString(out)))
                .containsOnly(entry("main;a", 30L), entry("main;c", 10L));
        assertThat(Files.readString(out)).contains("scaled ×2.000");
    }

    @Test
    void outputMustBeHtml() {
        String line = diff(before.toString(), after.toString(), dir.resolve("diff.collapsed").toString())
                .assertBadInput();

        assertThat(line).startsWith("mixflame diff: ").contains(".html");
    }

    @Test
    void missingInput() {
        String missing = dir.resolve("gone.collapsed").toString();

        String line = diff(missing, after.toString(), dir.resolve("d.html").toString()).assertBadInput();

        assertThat(line).isEqualTo("mixflame diff: " + missing + ": no such file");
    }

    @Test
    void malformedLinesInEitherInputAreWarnings() throws IOException {
        Files.writeString(after, "main;a 30\noops\n");

        CliRun run = diff(before.toString(), after.toString(), dir.resolve("d.html").toString());

        assertThat(run.status()).isZero();
        assertThat(run.errLines()).containsExactly("mixflame diff: " + after + " line 2: no sample count "
                + "(expected 'frame;frame;... count')");
    }

    @Test
    void wrongArityPrintsTheUsage() {
        assertThat(diff(before.toString(), after.toString()).assertBadInput()).isEqualTo(DiffCommand.USAGE);
        assertThat(diff().assertBadInput()).isEqualTo(DiffCommand.USAGE);
    }
}
