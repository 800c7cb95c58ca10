package io.mixflame.report.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One run of a command with captured output. */
record CliRun(int status, String out, String err) {

    interface Command {
        int run(List<String> args, PrintStream out, PrintStream err);
    }

    static CliRun of(Command command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = command.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    List<String> errLines() {
        return err.lines().toList();
    }

    /** Exit status 2 and exactly one line on err, no trace of a Java exception; returns that line. */
    String assertBadInput() {
        assertThat(status).as("exit status; err: %s", err).isEqualTo(2);
        assertThat(errLines()).as("err").hasSize(1);
        String line = errLines().get(0);
        assertThat(line).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("at io.");
        return line;
    }
}
