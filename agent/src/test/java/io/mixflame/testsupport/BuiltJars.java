package io.mixflame.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** The jars the build made, which end-to-end tests run; found from the module's directory. */
public final class BuiltJars {
    private BuiltJars() {
    }

    /** {@code agent/target/mixflame.jar}. */
    public static Path agent() {
        return existing(projectRoot().resolve("agent/target/mixflame.jar"));
    }

    /** {@code examples/target/mixflame-examples.jar}. */
    public static Path examples() {
        return existing(projectRoot().resolve("examples/target/mixflame-examples.jar"));
    }

    /** The directory holding the root pom. */
    public static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("agent/pom.xml"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("not inside the mixflame project: " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    private static Path existing(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run the tests with mvn verify, which packages first");
        }
        return jar;
    }
}
