package io.mixflame.engine.suspend;

import java.util.Arrays;

/**
 * The CPU time counted so far of each listed thread, how many intervals of it a sample is to stand for, and which
 * threads to ask again at a tick. A thread is sampled once the CPU it used since it was last counted reaches a whole
 * interval; the sample stands for the whole intervals used, and the rest, under one interval, is carried to its next
 * sample. A profile's counts thus follow the CPU each thread used (a thread busy all the time counts four intervals to
 * one busy a quarter of it), and add up to the CPU used divided by the interval, short by less than one interval a
 * thread.
 *
 * <p>Under Wine each GetThreadTimes is a round trip through wineserver and an open, read and close of the thread's
 * {@code /proc} stat file (160 µs or more on a busy machine), asked of every thread at every tick: a JVM's twenty-odd
 * threads cost a tenth of a 10 ms interval or more, though most of them (GC and compiler threads, waiting ones) used
 * nothing. A thread that used no CPU (or not yet a whole interval since it was last counted) over
 * {@value #QUIET_POLLS} looks in a row is asked again after 2 ticks, then 4, 8 and so on up to
 * {@value #QUIET_MOST_EVERY}, for as long as it stays quiet; once it is sampled it is asked at every tick again. Its
 * growth is then all it used since it was last counted, so its share of the profile is kept, only found up to that
 * many ticks later. Arrays are indexed as the listing is.
 */
final class CpuTimes {
    static final int QUIET_POLLS = 4;
    /** The longest wait between two looks at a quiet thread, in ticks (a power of two). */
    static final int QUIET_MOST_EVERY = 32;
    /** Quiet looks in a row past which the wait no longer grows. */
    private static final int QUIET_MOST = QUIET_POLLS + Integer.numberOfTrailingZeros(QUIET_MOST_EVERY);

    /**
     * The CPU time each thread was counted up to: a whole number of intervals past the first look, so that what it
     * used since is the remainder carried from its last sample and its growth since.
     */
    private long[] last = new long[0];
    private int[] quiet = new int[0];
    private long interval = 1;

    /**
     * Takes a new listing: each thread of {@code alive} that {@code listed} held keeps the CPU time it was counted
     * up to (its remainder with it) and how long it has been quiet; new threads start unseen.
     */
    void relisted(int[] listed, int[] alive) {
        // Old threads as (tid, index) packed in sorted longs: found by tid without a map of boxed ids.
        long[] old = new long[listed.length];
        for (int i = 0; i < listed.length; i++) {
            old[i] = (long) listed[i] << 32 | i;
        }
        Arrays.sort(old);
        long[] cpu = new long[alive.length];
        int[] still = new int[alive.length];
        for (int i = 0; i < alive.length; i++) {
            int k = Arrays.binarySearch(old, (long) alive[i] << 32);
            int at = k >= 0 ? k : -k - 1;
            boolean known = at < old.length && (int) (old[at] >>> 32) == alive[i];
            cpu[i] = known ? last[(int) old[at]] : -1;
            still[i] = known ? quiet[(int) old[at]] : 0;
        }
        last = cpu;
        quiet = still;
    }

    /** Whether thread {@code i} of the listing is to be asked for its CPU time at tick {@code tick}. */
    boolean due(int i, long tick) {
        // Staggered by index: the quiet threads' looks spread over the ticks rather than all falling on one.
        return quiet[i] < QUIET_POLLS || ((tick + i) & (every(quiet[i]) - 1)) == 0;
    }

    /** Ticks between looks at a thread quiet for {@code looks} looks in a row (at least {@link #QUIET_POLLS}). */
    static int every(int looks) {
        return 1 << Math.min(looks - QUIET_POLLS + 1, QUIET_MOST - QUIET_POLLS);
    }

    /**
     * Sets the interval, in whole numbers of which samples are counted. A thread is not stopped until it has used a
     * whole one since it was last counted: with CPU times in nanoseconds, a thread that woke for microseconds would
     * otherwise be stopped at every tick, and a sample for less than an interval could not be counted in whole
     * intervals without losing (or inventing) CPU. What it used is kept, and counted with the sample it brings once
     * past an interval.
     */
    void interval(long nanos) {
        interval = Math.max(1, nanos);
    }

    /**
     * Records thread {@code i}'s CPU time {@code used} (negative when it could not be read).
     *
     * @return how many whole intervals of CPU it used since it was last counted (those to count with a sample of it
     *         now; the rest is carried to its next one), or 0 when not yet one, when it did not grow, or when this
     *         look or the last one failed
     */
    long intervals(int i, long used) {
        long before = last[i];
        if (used < 0 || before < 0 || used < before) {
            // Nothing to compare with (a first look, a failed one, a time that went back): counting starts again here.
            last[i] = used;
            quiet[i] = Math.min(quiet[i] + 1, QUIET_MOST);
            return 0;
        }
        long whole = (used - before) / interval;
        if (whole == 0) {
            quiet[i] = Math.min(quiet[i] + 1, QUIET_MOST);
            return 0;
        }
        last[i] = before + whole * interval;
        quiet[i] = 0;
        return whole;
    }
}
