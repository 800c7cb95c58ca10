package io.mixflame.unwind.pe;

import java.util.List;

/**
 * A walked PE stack: the frames found, innermost first, and why the walk stopped after the last of them.
 *
 * @param frames every frame whose pc lies in an image, innermost first; none past the point the walk stopped
 * @param end    why it stopped
 * @param detail the failed check or the stray pc, for a log line; empty when the stack ended normally
 */
public record PeStackWalk(List<PeFrame> frames, PeWalkEnd end, String detail) {
    public PeStackWalk {
        frames = List.copyOf(frames);
    }
}
