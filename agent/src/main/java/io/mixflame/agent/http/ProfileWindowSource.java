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

    /** Engine, event, interval and sample count so far, as JSON fields. */
    String engine();

    String event();

    long intervalNanos();

    long samples();

    List<String> costNotes();
}
