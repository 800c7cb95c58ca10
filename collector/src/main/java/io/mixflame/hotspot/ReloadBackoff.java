package io.mixflame.hotspot;

/**
 * When a table the JVM adds to now and then (its generated stubs) may be read again after a lookup missed: after
 * {@value #SHORTEST_NANOS} ns at first, twice as long after each reading that found nothing new, up to
 * {@value #LONGEST_NANOS} ns, and back to the shortest once a reading finds more. A pc that no stub holds (an
 * adapter's, say) then costs one reading a minute in a steady JVM rather than one a second — on Windows a reading
 * is a hundred reads of the target, each a round trip through wineserver under Wine.
 */
final class ReloadBackoff {
    static final long SHORTEST_NANOS = 1_000_000_000L;
    static final long LONGEST_NANOS = 64_000_000_000L;

    private long readAt;
    private long wait = SHORTEST_NANOS;
    private int size = -1;

    /** Whether the table may be read again at {@code now}, having missed. */
    boolean due(long now) {
        return now - readAt >= wait;
    }

    /** Records a reading at {@code now} that found {@code found} entries (stubs are only ever added). */
    void read(long now, int found) {
        readAt = now;
        wait = found > size || size < 0 ? SHORTEST_NANOS : Math.min(wait * 2, LONGEST_NANOS);
        size = Math.max(size, found);
    }
}
