package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileWriterTest {

    @TempDir
    Path dir;

    private List<String> listing() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writesTheContentAndLeavesNoTemporaryFile() throws IOException {
        Path target = dir.resolve("out.txt");

        AtomicFileWriter.write(target, out -> out.write("hello".getBytes(StandardCharsets.UTF_8)));

        assertThat(target).hasContent("hello");
        assertThat(listing()).containsExactly("out.txt");
    }

    @Test
    void replacesAnExistingFile() throws IOException {
        Path target = dir.resolve("out.txt");
        Files.writeString(target, "old content that is longer");

        AtomicFileWriter.write(target, out -> out.write("new".getBytes(StandardCharsets.UTF_8)));

        assertThat(target).hasContent("new");
        assertThat(listing()).containsExactly("out.txt");
    }

    @Test
    void aFailingBodyLeavesTheOldFileAndNoTemporary() throws IOException {
        Path target = dir.resolve("out.txt");
        Files.writeString(target, "old");

        assertThatThrownBy(() -> AtomicFileWriter.write(target, out -> {
            out.write(new byte[100_000]);
            throw new IOException("disk full");
        })).isInstanceOf(IOException.class).hasMessage("disk full");

        assertThat(target).hasContent("old");
        assertThat(listing()).containsExactly("out.txt");
    }

    @Test
    void aBodyFailingUncheckedLeavesNoPartialTarget() throws IOException {
        Path target = dir.resolve("new.html");

        assertThatThrownBy(() -> AtomicFileWriter.write(target, out -> {
            out.write("<html>half".getBytes(StandardCharsets.UTF_8));
            throw new IllegalStateException("bug");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(target).doesNotExist();
        assertThat(listing()).isEmpty();
    }

    @Test
    void aMissingDirectoryIsACleanIOExceptionAndCreatesNothing() {
        Path target = dir.resolve("no/such/dir/out.txt");

        assertThatThrownBy(() -> AtomicFileWriter.write(target, out -> out.write(1)))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("out.txt")
                .hasMessageContaining("does not exist");

        assertThat(dir.resolve("no")).doesNotExist();
    }

    @Test
    void aDirectoryInTheWayIsAnError() throws IOException {
        Path target = Files.createDirectory(dir.resolve("taken.txt"));

        assertThatThrownBy(() -> AtomicFileWriter.write(target, out -> out.write(1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is a directory");

        assertThat(listing()).containsExactly("taken.txt");
        assertThat(target).isDirectory();
    }

    @Test
    void aBodyMayCloseTheStream() throws IOException {
        Path target = dir.resolve("out.txt");

        AtomicFileWriter.write(target, out -> {
            out.write('x');
            out.close();
        });

        assertThat(target).hasContent("x");
    }

    @Test
    void theTemporaryFileIsHiddenNextToTheTarget() throws IOException {
        Path target = dir.resolve("out.txt");
        String[] seen = new String[1];

        AtomicFileWriter.write(target, out -> seen[0] = String.join(",", listing()));

        assertThat(seen[0]).matches("\\.out\\.txt\\.tmp-[0-9a-f]{8}");
    }

    @Test
    void aFileSystemThatRefusesTheFileGivesTheTargetAndTheReason() {
        // /proc exists everywhere this runs and takes no new files, not even from root.
        Path target = Path.of("/proc/mixflame-test.html");

        assertThatThrownBy(() -> AtomicFileWriter.write(target, out -> out.write(1)))
                .isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(e.getMessage())
                        .startsWith("/proc/mixflame-test.html: ")
                        .doesNotContain(".tmp-")
                        .doesNotContain("\n")
                        .matches("/proc/mixflame-test.html: \\S.*"));
    }
}
