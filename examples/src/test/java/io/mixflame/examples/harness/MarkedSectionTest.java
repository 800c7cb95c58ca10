package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkedSectionTest {
    @TempDir
    Path dir;

    @Test
    void replacesOnlyTheMarkedPart() {
        String doc = "# Benchmarks\n\nhand-written\n\n" + MarkedSection.BEGIN + "\nold table\n" + MarkedSection.END
                + "\n\n## Later\nmore\n";
        assertThat(MarkedSection.replace(doc, "new table\n")).isEqualTo("# Benchmarks\n\nhand-written\n\n"
                + MarkedSection.BEGIN + "\nnew table\n" + MarkedSection.END + "\n\n## Later\nmore\n");
    }

    @Test
    void appendsTheMarkersWhenThereAreNone() {
        assertThat(MarkedSection.replace("# Benchmarks\n", "table")).isEqualTo("# Benchmarks\n\n"
                + MarkedSection.BEGIN + "\ntable\n" + MarkedSection.END + "\n");
    }

    @Test
    void rejectsABeginWithoutAnEnd() {
        assertThatThrownBy(() -> MarkedSection.replace("x\n" + MarkedSection.BEGIN + "\nold\n", "new"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("markers are broken")
                .hasMessageNotContaining("\n");
    }

    @Test
    void rejectsAnEndBeforeTheBegin() {
        assertThatThrownBy(() -> MarkedSection.replace(MarkedSection.END + "\n" + MarkedSection.BEGIN + "\n", "new"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void writeReplacesTheFileAndLeavesNoTemporaryFile() throws Exception {
        Path file = dir.resolve("BENCHMARKS.md");
        Files.writeString(file, "top\n" + MarkedSection.BEGIN + "\nold\n" + MarkedSection.END + "\nbottom\n");
        MarkedSection.write(file, "fresh\n");
        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .isEqualTo("top\n" + MarkedSection.BEGIN + "\nfresh\n" + MarkedSection.END + "\nbottom\n");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void aBrokenFileIsLeftAsItWas() throws Exception {
        Path file = dir.resolve("BENCHMARKS.md");
        String broken = "top\n" + MarkedSection.BEGIN + "\nold\n";
        Files.writeString(file, broken);
        assertThatThrownBy(() -> MarkedSection.write(file, "fresh")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(broken);
    }
}
