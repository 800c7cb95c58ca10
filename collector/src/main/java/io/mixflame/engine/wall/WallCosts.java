package io.mixflame.engine.wall;

import io.mixflame.engine.CostNotes;
import java.util.ArrayList;
import java.util.List;

/**
 * What the wall engine's sampler did and cost: ticks taken of those asked, blocked stacks walked and reused, ticks
 * that visited only some of the threads that moved, and the sampler's CPU once it ended. Counted by the sampler
 * thread, read by whoever asks for the cost note.
 */
final class WallCosts {
    private volatile long intervalNanos;
    private volatile long startNanos;
    /** When the ticks began, the capture opened and the sampler's code warmed up: the ticks asked count from here. */
    private volatile long tickingSince;
    private volatile long stoppedNanos;
    private volatile long cpuNanos;
    private long ticks;
    /** The sampler's passes that counted ticks from switch records; 0 where it visits at each tick. */
    private long passes;
    private long lostPasses;
    private long accountedTicks;
    private volatile String captureNote;
    /** Ticks whose visits ran out before every thread that needed one had it. */
    private long partialTicks;
    /** The most intervals one sample stood for because its thread waited for a visit. */
    private long longestWait;
    private long walks;
    private long reused;

    /** Sampling at {@code intervalNanos} starts at {@code nanos} ({@link System#nanoTime()}). */
    void started(long intervalNanos, long nanos) {
        this.intervalNanos = intervalNanos;
        this.startNanos = nanos;
    }

    /** The first tick's deadline is counted from {@code nanos}. */
    void ticking(long nanos) {
        tickingSince = nanos;
    }

    void ticked() {
        ticks++;
    }

    /** A pass of the sampler counted {@code ticks} grid points from the kernel's switch records. */
    void accounted(long ticks) {
        this.ticks += ticks;
        accountedTicks += ticks;
        passes++;
    }

    /** A pass found records lost (full rings): the grid points since the pass before are not counted. */
    void recordsLost() {
        passes++;
        lostPasses++;
    }

    /** What the running threads' capture says of itself (its rings), for the note. */
    void capture(String description) {
        captureNote = description;
    }

    /** A tick visited some of the threads that moved, the rest left to the next ticks. */
    void partialTick() {
        partialTicks++;
    }

    /** A sample stood for {@code intervals} of its thread, which waited that long for a visit. */
    void waited(long intervals) {
        longestWait = Math.max(longestWait, intervals);
    }

    /** A blocked thread's stack was walked. */
    void walked() {
        walks++;
    }

    /** A thread's kept stack was counted again, unchanged. */
    void reused() {
        reused++;
    }

    /** The sampler ended at {@code nanos}, having run {@code cpu} ns on a CPU (-1 when unknown). */
    void stopped(long nanos, long cpu) {
        stoppedNanos = nanos;
        cpuNanos = Math.max(0, cpu);
    }

    List<String> notes() {
        List<String> notes = new ArrayList<>();
        long end = stoppedNanos != 0 ? stoppedNanos : System.nanoTime();
        double elapsed = Math.max(1, end - startNanos);
        long since = tickingSince;
        long asked = intervalNanos == 0 || since == 0 ? 0 : (end - since) / intervalNanos;
        String counted = passes == 0 ? "" : " (" + accountedTicks + " of them counted from the kernel's switch records, once the sampler fell behind, at "
                + passes + " passes" + (lostPasses == 0 ? "" : ", " + lostPasses
                + " of which found records lost, the ticks since the pass before not counted") + ")";
        notes.add(ticks + " of " + asked + " wall-clock ticks" + counted + ", " + walks + " blocked stacks walked, " + reused
                + " reused unchanged" + (cpuNanos == 0 ? "" : ", sampler " + CostNotes.ofOneCore(cpuNanos, elapsed)));
        String c = captureNote;
        if (c != null) {
            notes.add(c);
        }
        if (partialTicks > 0) {
            notes.add(partialTicks + " ticks visited some of the threads that moved (at most "
                    + WallTick.MAX_VISITS_PER_TICK + " a tick), the rest at the next ticks: a sample stood for up to "
                    + longestWait + " intervals of its thread");
        }
        return notes;
    }
}
