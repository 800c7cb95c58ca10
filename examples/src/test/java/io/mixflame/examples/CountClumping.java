package io.mixflame.examples;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far an engine's counts clump: where ticks come late, the suspend engine counts a thread's CPU since it was last
 * counted in whole intervals with one sample, and its cost note says so ("standing for N intervals of CPU (at most K
 * in one, M in an interval's sample on average)", M being the sum of the squares of the samples' counts over their
 * sum). A share judged by counts then varies as if it rested on counts / M independent samples, not on counts: tests
 * divide by M before taking a margin from chance. Profiles taken in periods are combined by their sums.
 */
public final class CountClumping {
    private static final Pattern NOTE = Pattern.compile(
            "standing for (\\d+) intervals of CPU \\(at most (\\d+) in one, ([\\d.]+) in an interval's sample on average\\)");

    private long most = 1;
    private double intervals;
    private double squares;

    /** Takes the notes of one profile (its text, or what the command printed). */
    public void add(String notes) {
        Matcher m = NOTE.matcher(notes);
        while (m.find()) {
            long counted = Long.parseLong(m.group(1));
            most = Math.max(most, Long.parseLong(m.group(2)));
            intervals += counted;
            squares += counted * Double.parseDouble(m.group(3));
        }
    }

    /** The most intervals one sample stood for in the profiles taken (1 when no note said). */
    public long most() {
        return most;
    }

    /** How many intervals an interval's sample stood for on average over the profiles taken (1 when no note said). */
    public double clump() {
        return intervals == 0 ? 1 : Math.max(1, squares / intervals);
    }

    /** The independent samples that {@code counts} are worth. */
    public double samples(double counts) {
        return counts / clump();
    }
}
