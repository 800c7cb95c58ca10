package io.mixflame.agent;

import io.mixflame.profile.Profile;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a session's profiles where its options say, each atomically, and keeps at most {@code keep} of the
 * files a loop writes (only files it wrote itself are ever deleted). A profile whose file cannot be written goes
 * to the temporary directory instead, so that a typo in {@code file=} does not cost the whole run; a loop never
 * replaces a file, not even one it wrote a second earlier.
 */
final class ProfileOutput {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileOutput.class);

    private final AgentOptions options;
    private final Path fallbackDir;
    private final Deque<Path> written = new ArrayDeque<>();

    /**
     * @param options     the session's options
     * @param fallbackDir where profiles go when their own file cannot be written
     */
    ProfileOutput(AgentOptions options, Path fallbackDir) {
        this.options = options;
        this.fallbackDir = fallbackDir;
    }

    /** Where the session's file would go now, if that is not a directory that exists: else null. */
    String problemWithTarget() {
        Path path = target().toAbsolutePath();
        Path dir = path.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return "directory " + dir + " does not exist";
        }
        if (!Files.isWritable(dir)) {
            return "directory " + dir + " is not writable";
        }
        return null;
    }

    /** The file a profile that cannot go to its own file goes to instead. */
    Path fallbackFor(Path target) {
        return OutputPath.unused(fallbackDir.resolve(target.getFileName()));
    }

    /** Writes to the session's file, or else to the fallback; returns what was written where. */
    Written write(Profile profile) throws IOException {
        Path path = target();
        boolean looping = options.loopNanos() > 0;
        if (looping) {
            path = OutputPath.unused(path);
        }
        Written result;
        try {
            writeTo(profile, path);
            result = new Written(path, null);
        } catch (IOException | RuntimeException e) {
            Path fallback = fallbackFor(path);
            try {
                writeTo(profile, fallback);
            } catch (IOException | RuntimeException again) {
                e.addSuppressed(again);
                throw e;
            }
            result = new Written(fallback, path + " could not be written: " + e.getMessage());
        }
        if (looping) {
            retain(result.path());
        }
        return result;
    }

    /**
     * A profile on disk.
     *
     * @param path    where it is
     * @param problem why it is not where {@code file=} said, or null
     */
    record Written(Path path, String problem) {
    }

    /** Writes to a file named by a {@code dump} command. */
    void writeTo(Profile profile, Path path) throws IOException {
        ProfileFiles.write(profile, path, options.reportOptions());
    }

    private Path target() {
        return OutputPath.expandNow(options.file(), ProcessHandle.current().pid(), options.loopNanos() > 0);
    }

    private synchronized void retain(Path path) {
        written.remove(path);
        written.addLast(path);
        while (written.size() > options.keep()) {
            Path old = written.removeFirst();
            try {
                Files.deleteIfExists(old);
            } catch (IOException e) {
                LOG.warn("could not delete old profile {}: {}", old, e.getMessage());
            }
        }
    }
}
