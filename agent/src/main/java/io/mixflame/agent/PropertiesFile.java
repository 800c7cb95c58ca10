package io.mixflame.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** A {@code .properties} file read for settings, bounded: one that is missing, unreadable or too large reads as empty. */
final class PropertiesFile {
    private PropertiesFile() {
    }

    /** The properties in {@code path} (relative: to the working directory), or none. */
    static Properties read(String path, int maxBytes) {
        Properties p = new Properties();
        try {
            Path file = Path.of(path);
            if (!Files.isRegularFile(file) || Files.size(file) > maxBytes) {
                return p;
            }
            try (InputStream in = Files.newInputStream(file)) {
                p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
        } catch (IOException | IllegalArgumentException | SecurityException e) {
            return new Properties();
        }
        return p;
    }
}
