package io.mixflame.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What {@code --version} says: the version, and the commit and time of the build, from {@value #RESOURCE}, which
 * the build writes next to this class. A tree built without git (a source archive) says {@value #UNKNOWN} for the
 * commit; so does a jar whose file is missing or was not filled in.
 *
 * @param version the project's version
 * @param commit  the git commit built, abbreviated
 * @param built   when, in UTC
 */
record BuildInfo(String version, String commit, String built) {

    static final String RESOURCE = "build.properties";
    static final String UNKNOWN = "unknown";

    /** The build's own information. */
    static BuildInfo current() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // said as unknown below
        }
        return of(p);
    }

    /** From the file's properties; a missing, empty or unfilled value ({@code ${…}}) is unknown. */
    static BuildInfo of(Properties p) {
        return new BuildInfo(value(p, "version"), value(p, "commit"), value(p, "built"));
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key, "").strip();
        return v.isEmpty() || v.contains("${") ? UNKNOWN : v;
    }

    /** {@code mixflame 0.1.0 (commit 1a2b3c4, built 2025-01-31T12:00:00Z)}. */
    String describe() {
        return "mixflame " + version + " (commit " + commit + ", built " + built + ")";
    }
}
