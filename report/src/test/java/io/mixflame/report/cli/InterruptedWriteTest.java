package io.mixflame.report.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterruptedWriteTest {

    @TempDir
    Path dir;

    @Test
    void aReportStoppedWhileItWritesLeavesNoTemporaryFile() throws Exception {
        Path out = Files.createDirectory(dir.resolve("out"));
        // Every stack holds a frame on which the --include pattern below backtracks for ages: the command
        // stays inside its write, its temporary file open, until it is stopped.
        String stuck = "a".repeat(40);
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            input.append("[main tid=1];").append(stuck).append(";app/Work.step").append(i).append(" 1\n");
        }
        Path in = Files.writeString(dir.resolve("in.collapsed"), input);

        try (ChildCli child = ChildCli.start(dir.resolve("logs"), "256m", List.of("report", in.toString(),
                out.resolve("big.html").toString(), "--include", "(.*a){30}x"))) {
            while (temporaryFiles(out).isEmpty()) {
                assertThat(child.isAlive()).as("child still writing; stderr: %s", child.err()).isTrue();
                Thread.sleep(20);
            }

            child.terminate();
            child.awaitExit();
        }

        assertThat(temporaryFiles(out)).isEmpty();
        assertThat(out).isEmptyDirectory();
    }

    private static List<Path> temporaryFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().contains(".tmp-")).toList();
        }
    }
}
