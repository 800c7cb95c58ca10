package io.mixflame.agent.http;

import io.mixflame.profile.Profile;
import java.util.List;

/** What the HTTP endpoints serve: profiles of the next N seconds, and the session's state. */
public interface ProfileWindowSource {
    /** The samples of the next {@code seconds}; blocks that long. */
    Profile window(long seconds) throws InterruptedException;

    /**
     * The samples of the next {@code seconds} of one event ({@code alloc}, {@code lock}); blocks that long. Null,
     * at once, when the session does not profile that event.
     */
    Profile window(long seconds, String event) throws InterruptedException;

    /**
     * The samples of one event ({@code alloc}, {@code lock}) since the session started, or since its last loop
     * period ended: what Go's {@code allocs} and {@code mutex} profiles give without {@code seconds}, cumulative
     * counts that a scraper turns into deltas itself. Null when the session does not profile that event.
     */
    Profile sinceStart(String event);

    /** Engine, event, interval and sample count so far, as JSON fields. */
    String engine();

    String event();

    long intervalNanos();

    long samples();

    List<String> costNotes();
}
