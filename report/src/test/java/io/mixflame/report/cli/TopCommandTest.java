package io.mixflame.report.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopCommandTest {

    @TempDir
    Path dir;

    private CliRun top(String... args) {
        return CliRun.of(TopCommand::run, args);
    }

    @Test
    void printsTheHottestFramesWithCorrectNumbers() throws IOException {
        Path in = Files.writeString(dir.resolve("in.collapsed"), """
                main;app/A.a_[j];app/B.b_[j] 40
                main;app/A.a_[j] 30
                main;app/A.a_[j];x;app/A.a_[i] 20
                main;c 10
                """);

        CliRun run = top(in.toString(), "2");

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("""
                rank  self %  self  total %  total  frame
                   1   50.0%    50    90.0%     90  app/A.a
                   2   40.0%    40    40.0%     40  app/B.b
                """);
    }

    @Test
    void showsTwentyByDefault() throws IOException {
        String lines = IntStream.rangeClosed(1, 25).mapToObj(i -> "f" + i + " " + i).collect(Collectors.joining("\n"));
        Path in = Files.writeString(dir.resolve("in.collapsed"), lines + "\n");

        CliRun run = top(in.toString());

        assertThat(run.status()).isZero();
        assertThat(run.out().lines()).hasSize(1 + TopCommand.DEFAULT_LIMIT);
        assertThat(run.out().lines().skip(1).findFirst()).hasValueSatisfying(l -> assertThat(l).endsWith("  f25"));
    }

    @Test
    void badCountIsBadUsage() throws IOException {
        Path in = Files.writeString(dir.resolve("in.collapsed"), "a 1\n");

        assertThat(top(in.toString(), "0").assertBadInput()).contains("positive whole number").contains("'0'");
        assertThat(top(in.toString(), "many").assertBadInput()).contains("'many'");
    }

    @Test
    void missingOrUnreadableInput() throws IOException {
        assertThat(top(dir.resolve("none.collapsed").toString()).assertBadInput()).endsWith(": no such file");
        Path directory = Files.createDirectory(dir.resolve("d.collapsed"));
        assertThat(top(directory.toString()).assertBadInput()).contains("is a directory");
    }

    @Test
    void wrongArityPrintsTheUsage() {
        assertThat(top().assertBadInput()).isEqualTo(TopCommand.USAGE);
        assertThat(top("a", "1", "b").assertBadInput()).isEqualTo(TopCommand.USAGE);
    }

    @Test
    void countsAddingUpPastLongMaxValueAreBadInputNotANegativeShare() throws IOException {
        Path in = Files.writeString(dir.resolve("in.collapsed"), "a;b 9223372036854775807\na;c 2\n");

        CliRun run = top(in.toString());

        assertThat(run.assertBadInput()).startsWith("mixflame top: " + in + ": line 2: ");
        assertThat(run.out()).isEmpty();
    }
}
