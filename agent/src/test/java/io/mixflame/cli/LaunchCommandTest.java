package io.mixflame.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchCommandTest {
    @TempDir
    Path dir;

    @Test
    void aStarEntryStandsForTheJarsOfItsDirectoryAndOtherEntriesForThemselves() throws Exception {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("a.jar"), "");
        Files.writeString(lib.resolve("b.JAR"), "");
        Files.writeString(lib.resolve("notes.txt"), "");
        Path classes = Files.createDirectories(dir.resolve("classes"));

        URL[] urls = LaunchCommand.urls(classes + File.pathSeparator + lib + File.separator + "*"
                + File.pathSeparator + File.pathSeparator);

        assertThat(Arrays.stream(urls).map(u -> Path.of(u.getPath()).getFileName().toString()))
                .containsExactlyInAnyOrder("classes", "a.jar", "b.JAR");
        assertThat(urls[0]).isEqualTo(classes.toUri().toURL());
    }

    @Test
    void aMissingStarDirectoryIsAnError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> LaunchCommand.urls(dir.resolve("none") + File.separator + "*"))
                .isInstanceOf(java.io.IOException.class);
    }
}
