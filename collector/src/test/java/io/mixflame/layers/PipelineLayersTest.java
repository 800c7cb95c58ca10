package io.mixflame.layers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The collector's packages import one way, in the order data passes through them: a package (with its platform
 * sub-packages) imports only from the packages before it, never from one after it. The profile model
 * ({@code io.mixflame.profile}, of the report module below) is open to all.
 */
class PipelineLayersTest {
    /** The collector's top-level packages, first to last. */
    private static final List<String> LAYERS = List.of("cache", "process", "image", "capture", "hotspot", "unwind",
            "symbolize", "platform", "engine", "stack");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.mixflame\\.([a-z]+)\\.",
            Pattern.MULTILINE);
    private static final Path SOURCES = Path.of("src/main/java/io/mixflame");

    @Test
    void noPackageImportsOneAfterItInThePipeline() throws IOException {
        List<String> wrong = new ArrayList<>();
        int files = 0;
        try (Stream<Path> paths = Files.walk(SOURCES)) {
            for (Path file : (Iterable<Path>) paths.filter(p -> p.toString().endsWith(".java"))::iterator) {
                files++;
                String layer = SOURCES.relativize(file).getName(0).toString();
                assertThat(LAYERS).as("the layer of %s", file).contains(layer);
                Matcher m = IMPORT.matcher(Files.readString(file));
                while (m.find()) {
                    String imported = m.group(1);
                    if (imported.equals("profile")) {
                        continue;
                    }
                    if (!LAYERS.contains(imported) || LAYERS.indexOf(imported) > LAYERS.indexOf(layer)) {
                        wrong.add(SOURCES.relativize(file) + " imports io.mixflame." + imported);
                    }
                }
            }
        }
        assertThat(files).as("source files read").isGreaterThan(100);
        assertThat(wrong).as("imports against the pipeline's direction").isEmpty();
    }
}
