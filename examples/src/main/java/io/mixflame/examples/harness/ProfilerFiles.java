package io.mixflame.examples.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where the profilers' files are: mixflame's agent jar, and async-profiler's native library, extracted from the
 * jar the build copied into {@code examples/target/profilers/}.
 *
 * @param mixflameAgent        {@code agent/target/mixflame.jar}
 * @param asyncProfilerLibrary {@code libasyncProfiler.so} for this machine
 * @param asyncProfilerVersion the version in the async-profiler jar, or "?"
 */
public record ProfilerFiles(Path mixflameAgent, Path asyncProfilerLibrary, String asyncProfilerVersion) {

    /** The project's built files, found from the directory holding the root pom; the library goes to {@code work}. */
    public static ProfilerFiles find(Path projectRoot, Path work) throws IOException {
        Path agent = existing(projectRoot.resolve("agent/target/mixflame.jar"), "build the agent: mvn package");
        Path jar = existing(projectRoot.resolve("examples/target/profilers/async-profiler.jar"),
                "build the examples module: mvn -pl examples package");
        String platform = platform();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry(platform + "/libasyncProfiler.so");
            if (entry == null) {
                throw new IOException(jar + " has no async-profiler library for " + platform);
            }
            Path library = work.resolve("async-profiler").resolve(platform).resolve("libasyncProfiler.so");
            Files.createDirectories(library.getParent());
            try (InputStream in = zip.getInputStream(entry)) {
                Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            }
            return new ProfilerFiles(agent, library, version(zip));
        }
    }

    /**
     * The directory holding the root pom: above the examples jar this class runs from, or above the current
     * directory.
     */
    public static Path projectRoot() {
        try {
            Path here = Path.of(ProfilerFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path root = rootAbove(here);
            if (root != null) {
                return root;
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // Fall back to the current directory below.
        }
        Path root = rootAbove(Path.of("").toAbsolutePath());
        if (root == null) {
            throw new IllegalStateException("not inside the mixflame project: run from its directory");
        }
        return root;
    }

    private static Path rootAbove(Path start) {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("agent/pom.xml")) && Files.isDirectory(dir.resolve("examples"))) {
                return dir;
            }
        }
        return null;
    }

    private static String platform() {
        String arch = System.getProperty("os.arch");
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            throw new IllegalStateException("the harness runs on Linux only");
        }
        return arch.equals("aarch64") ? "linux-arm64" : "linux-x64";
    }

    private static String version(ZipFile zip) throws IOException {
        ZipEntry e = zip.getEntry("META-INF/maven/tools.profiler/async-profiler/pom.properties");
        if (e == null) {
            return "?";
        }
        Properties p = new Properties();
        try (InputStream in = zip.getInputStream(e)) {
            p.load(in);
        }
        return p.getProperty("version", "?");
    }

    private static Path existing(Path p, String hint) {
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " is missing: " + hint);
        }
        return p;
    }
}
