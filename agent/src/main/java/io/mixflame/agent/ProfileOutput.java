package io.mixflame.agent;

import io.mixflame.profile.Profile;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a session's profiles where its options say, each atomically, and keeps at most {@code keep} of the
 * files a loop writes (only files it wrote itself are ever deleted).
 */
final class ProfileOutput {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileOutput.class);

    private final AgentOptions options;
    private final Deque<Path> written = new ArrayDeque<>();

    ProfileOutput(AgentOptions options) {
        this.options = options;
    }

    /** Writes to the session's file; returns the path written. */
    Path write(Profile profile) throws IOException {
        Path path = OutputPath.expand(options.file(), ProcessHandle.current().pid(), LocalDateTime.now(),
                options.loopNanos() > 0);
        writeTo(profile, path);
        if (options.loopNanos() > 0) {
            retain(path);
        }
        return path;
    }

    /** Writes to a file named by a {@code dump} command. */
    void writeTo(Profile profile, Path path) throws IOException {
        ReportOptions report = new ReportOptions(options.title(), options.include(), options.exclude(), false);
        ProfileFiles.write(profile, path, report);
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
