package io.mixflame.agent.push;

import io.mixflame.profile.Profile;
import java.io.IOException;
import java.util.List;

/** A backend that takes each period's profiles, as the HTTP requests that push them there. */
interface PushTarget {

    /** The backend's kind, {@code otlp} or {@code pyroscope}, which names the target's push thread. */
    String kind();

    /** Where the profiles go, as a log line may name it: no query, no credentials. */
    String url();

    /** Encodes one period's profiles (one per event) as the requests that push them, in order. */
    List<PushRequest> requests(List<Profile> profiles) throws IOException;
}
