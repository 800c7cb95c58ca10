package io.mixflame.agent;

import io.mixflame.process.OwnPid;
import io.mixflame.profile.Counts;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import io.mixflame.report.OutputFormat;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a session's profiles where its options say, each atomically, and keeps at most {@code keep} of the
 * files a loop writes (only files it wrote itself are ever deleted). A profile whose file cannot be written goes
 * to the temporary directory instead, so that a typo in {@code file=} does not cost the whole run; a loop never
 * replaces a file, not even one it wrote a second earlier.
 *
 * <p>A session of several events ({@code event=cpu,alloc,lock}) writes one JFR or OTLP file holding every event's
 * events, or else one file per event, named by {@code %e} in {@code file=} ({@code -%e} is added before the extension
 * where it is missing). With {@code total}, collapsed and HTML allocation and lock profiles count bytes and
 * nanoseconds.
 */
final class ProfileOutput {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileOutput.class);

    private final AgentOptions options;
    private final Path fallbackDir;
    private final Deque<Path> written = new ArrayDeque<>();
    private int filesPerPeriod = 1;
    /** The files' sequence number ({@code %n}): counts the profiles written, a period's events together. */
    private final java.util.concurrent.atomic.AtomicLong sequence = new java.util.concurrent.atomic.AtomicLong();

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
        Path path = target(options.file(), options.events().get(0), options.loopNanos() > 0, sequence.get())
                .toAbsolutePath();
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

    /**
     * Writes each profile (one per event, at least one) to its file, or else to the fallback; returns what was written
     * where, in the same order (one entry for a JFR file holding them all).
     */
    List<Written> write(List<Profile> profiles) throws IOException {
        return write(profiles, options.file(), true);
    }

    /**
     * As {@link #write(List)}, to the files {@code template} names (a {@code dump}'s {@code file=}): outside any
     * loop (the file is never deleted to keep a loop's last few), and with no fallback (the caller named the file).
     */
    List<Written> dump(List<Profile> profiles, String template) throws IOException {
        return write(profiles, template, false);
    }

    /** {@code session}: the session's own files, which loop and fall back; else a dump's. */
    private List<Written> write(List<Profile> profiles, String template, boolean session) throws IOException {
        boolean looping = session && options.loopNanos() > 0;
        long n = sequence.getAndIncrement();
        List<Written> result = new ArrayList<>(profiles.size());
        OutputFormat format = options.formatOf(template);
        boolean oneFile = profiles.size() > 1 && (format == OutputFormat.JFR || format == OutputFormat.OTLP);
        if (looping) {
            // keep= counts periods: a period of several events writes a file per event (one .jfr or .otlp holds them
            // all).
            filesPerPeriod = oneFile ? 1 : profiles.size();
        }
        if (oneFile) {
            Path target = target(template, ProfileFiles.eventsName(profiles), looping, n);
            result.add(write(profiles, target, format, looping, OutputPath.wraps(template), session));
            return result;
        }
        String perEvent = profiles.size() > 1 ? OutputPath.perEvent(template) : template;
        for (Profile p : profiles) {
            result.add(write(List.of(p), target(perEvent, p.info().event(), looping, n), format, looping,
                    OutputPath.wraps(template), session));
        }
        return result;
    }

    private Written write(List<Profile> profiles, Path target, OutputFormat format, boolean looping,
                          boolean wrapping, boolean fallBack)
            throws IOException {
        Path path = target;
        if (looping && !wrapping) {
            path = OutputPath.unused(path);
        }
        Written result;
        try {
            writeTo(profiles, path, format);
            result = new Written(path, null, profiles);
        } catch (IOException | RuntimeException e) {
            if (!fallBack) {
                throw e;
            }
            Path fallback = fallbackFor(path);
            try {
                writeTo(profiles, fallback, format);
            } catch (IOException | RuntimeException again) {
                e.addSuppressed(again);
                throw e;
            }
            result = new Written(fallback, path + " could not be written: " + e.getMessage(), profiles);
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
     * @param profiles what it holds
     */
    record Written(Path path, String problem, List<Profile> profiles) {
        /** Samples in the file, all events together. */
        long samples() {
            long n = 0;
            for (Profile p : profiles) {
                n = Counts.add(n, p.totalSamples());
            }
            return n;
        }
    }

    private void writeTo(List<Profile> profiles, Path path, OutputFormat format) throws IOException {
        if (format == OutputFormat.OTLP) {
            // Even of one event: the file names the service as a push would.
            ProfileFiles.writeOtlp(profiles, path, options.reportOptions(), options.push().resource());
            return;
        }
        if (profiles.size() > 1) {
            ProfileFiles.writeJfr(profiles, path, options.reportOptions());
            return;
        }
        Profile p = profiles.get(0);
        boolean counted = format == OutputFormat.COLLAPSED || format == OutputFormat.HTML || format == OutputFormat.TEXT;
        String event = p.info().event();
        boolean weighed = event.equals(ProfileInfo.ALLOC) || event.equals(ProfileInfo.LOCK);
        if (options.total() && counted && weighed) {
            p = p.weightsAsSamples();
        }
        ProfileFiles.write(p, path, format, options.reportOptions());
    }

    private Path target(String template, String event, boolean looping, long n) {
        return OutputPath.expandNow(template, event, OwnPid.get(), looping, n);
    }

    private synchronized void retain(Path path) {
        written.remove(path);
        written.addLast(path);
        while (written.size() > (long) options.keep() * filesPerPeriod) {
            Path old = written.removeFirst();
            try {
                Files.deleteIfExists(old);
            } catch (IOException e) {
                LOG.warn("could not delete old profile {}: {}", old, e.getMessage());
            }
        }
    }
}
