package io.mixflame.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code stacks} on a live process, and on one that is gone by the time its stacks have been read. */
class StacksCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(long pid, java.util.function.LongPredicate alive) {
        return StacksCommand.run(List.of(Long.toString(pid), "--max-frames", "4"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                alive);
    }

    @Test
    void aProcessThatExitedDuringTheWalkIsAFailureWithNoStacksPrinted() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            int status = run(sleeper.pid(), pid -> false);
            assertThat(status).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8).strip())
                    .isEqualTo("mixflame stacks: process " + sleeper.pid() + " exited while its stacks were read");
            assertThat(out.size()).isZero();
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void aProcessThatStillRunsGetsItsStacks() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            int status = run(sleeper.pid(), pid -> true);
            assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Stacks of process " + sleeper.pid() + ", 1 threads");
        } finally {
            sleeper.destroyForcibly();
        }
    }

    @Test
    void aNameFromTheProcessCannotEndItsLineOrForgeAnother() {
        String forged = "worker\" tid=1 captured=suspended\n    at fake.Frame(Fake.java:1)\\";
        String shown = StacksCommand.oneLine(forged);
        assertThat(shown).doesNotContain("\n").isEqualTo(
                "worker\\\" tid=1 captured=suspended\\u000a    at fake.Frame(Fake.java:1)\\\\");
        assertThat(StacksCommand.oneLine("java.lang.Thread.run(Thread.java:833)")).as("ordinary text unchanged")
                .isEqualTo("java.lang.Thread.run(Thread.java:833)");
    }

    @Test
    void anUnknownWalkerIsABadCommandLineAndDbgHelpIsRefusedWhereThereIsNone() {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int status = StacksCommand.run(java.util.List.of(Long.toString(ProcessHandle.current().pid()), "--walker",
                "magic"), new java.io.PrintStream(out), new java.io.PrintStream(err));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("mixflame stacks: unknown walker 'magic' (expected own or dbghelp)"
                + System.lineSeparator());

        err.reset();
        int onLinux = StacksCommand.run(java.util.List.of(Long.toString(ProcessHandle.current().pid()), "--walker",
                "dbghelp"), new java.io.PrintStream(out), new java.io.PrintStream(err));
        assertThat(onLinux).isEqualTo(1);
        assertThat(err.toString()).contains("DbgHelp's StackWalk64 is not available here").doesNotContain("\tat ");
    }
}
