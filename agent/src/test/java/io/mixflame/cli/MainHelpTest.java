package io.mixflame.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MainHelpTest {

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource({
        "attach, --help", "attach, -h", "report, --help", "report, -h", "diff, --help", "diff, -h",
        "top, --help", "top, -h", "stacks, --help", "stacks, -h", "record, --help", "record, -h",
        "launch, --help", "launch, -h", "helper, --help", "helper, -h",
    })
    void everyCommandAnswersHelpWithItsUsageOnStdout(String command, String flag) {
        Run run = run(command, flag);

        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).startsWith("usage: ").contains(command + " ").isEqualTo(Main.usageOf(command) + "\n");
    }

    @Test
    void reportAndRecordHelpSayWhatTheDocumentsDescribe() {
        assertThat(run("report", "--help").out()).contains(".jfr recording", "gzip'd pprof", "--reverse", "--lines",
                "line N: why", "Exit status");
        assertThat(run("record", "--help").out()).contains("ptrace engine", "Samples cpu or wall", "refused",
                "when PID exits or on Ctrl-C", "-Dmixflame.relaunch=false");
        assertThat(run("report", "--bogus").err()).as("an error stays one line").hasLineCount(1);
    }

    @Test
    void attachHelpIsNotTakenForAProcessId() {
        assertThat(run("attach", "--help").out()).doesNotContain("is not a process id");
        assertThat(run("attach", "--help").out()).contains("attach PID");
    }

    @Test
    void theToolItselfAnswersHelpAndListsEveryCommand() {
        Run run = run("--help");

        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("attach PID", "report IN OUT", "diff BEFORE", "top IN", "record --pid",
                "launch OPTIONS", "stacks PID", "--version");
    }

    @Test
    void versionNamesTheVersionCommitAndBuildTime() throws Exception {
        Run run = run("--version");

        assertThat(run.status()).isZero();
        assertThat(run.out()).matches("mixflame \\S+ \\(commit ([0-9a-f]{7,}|unknown), built "
                + "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)\n");
        String head = gitHead();
        if (head != null) {
            assertThat(run.out()).contains("(commit " + head + ",");
        }
    }

    @Test
    void aBuildWithoutGitOrAnUnfilledFileSaysUnknown() {
        Properties p = new Properties();
        p.setProperty("version", "1.2.3");
        p.setProperty("commit", "${git.commit}");

        assertThat(BuildInfo.of(p).describe()).isEqualTo("mixflame 1.2.3 (commit unknown, built unknown)");
        p.setProperty("commit", "unknown");
        p.setProperty("built", "2030-01-02T03:04:05Z");
        assertThat(BuildInfo.of(p).describe()).isEqualTo("mixflame 1.2.3 (commit unknown, built 2030-01-02T03:04:05Z)");
    }

    /** The checkout's commit as git names it, or null outside a checkout or without git. */
    private static String gitHead() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        if (root == null || !Files.exists(root.resolve(".git"))) {
            return null;
        }
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").directory(root.toFile())
                    .redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor() == 0 ? out : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
