package io.mixflame.report;

import java.io.IOException;
import java.util.Locale;

/**
 * How much one read of a profile file may hold, so that no input, however large or endless ({@code /dev/zero},
 * a FIFO), can exhaust memory or the stack. Going past a bound fails the read with one line naming the bound;
 * nothing is folded silently.
 *
 * @param maxLineBytes   bytes in one line, line break excluded
 * @param maxStackDepth  frames in one stack (the converter that draws and parses pages recurses once per frame)
 * @param maxStacks      distinct stacks
 * @param maxFrames      distinct frames
 * @param maxTextChars   characters of the distinct frames' names and of the notes, together
 * @param maxStackFrames frames of all distinct stacks together (each costs a frame id)
 * @param maxPageLines   lines of an HTML flame graph page (each can be a node of the graph)
 */
public record ReadBounds(int maxLineBytes, int maxStackDepth, int maxStacks, int maxFrames, long maxTextChars,
                         long maxStackFrames, int maxPageLines) {

    /**
     * The bounds of {@code report}, {@code diff} and {@code top}: far above what mixflame writes (at most
     * 100 000 stacks, 200 000 frames, 2 048 frames a stack) and within a default-sized heap.
     */
    public static final ReadBounds DEFAULT =
            new ReadBounds(8 << 20, 16_384, 1_000_000, 1_000_000, 64_000_000, 32_000_000, 2_000_000);

    /** The failure of a read that went past a bound: {@code line N: over the bound of BOUND WHAT}. */
    static IOException exceeded(long lineNumber, long bound, String what) {
        return exceeded("line " + lineNumber, bound, what);
    }

    /** The same, for a place in the input that is not a line: {@code WHERE: over the bound of BOUND WHAT}. */
    static IOException exceeded(String where, long bound, String what) {
        return new IOException(where + ": over the bound of "
                + String.format(Locale.ROOT, "%,d", bound).replace(',', ' ') + " " + what);
    }
}
