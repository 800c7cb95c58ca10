package io.mixflame.agent.push;

import java.util.List;

/** A period on its way to one target: its requests once encoded, and how many of them went through. */
final class PendingPeriod {
    final PushPeriod period;
    /** Encoded at the first attempt, on the target's push thread; null before. */
    List<PushRequest> requests;
    /** The requests accepted so far: a retry resumes after them (Pyroscope takes one request per event). */
    int accepted;

    PendingPeriod(PushPeriod period) {
        this.period = period;
    }
}
