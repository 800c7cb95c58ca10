package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;
import java.util.Arrays;

/**
 * The spans samples fall in, as label frames ({@code [trace_id=…]}, {@code [span_id=…]}, {@code [span_name=…]}),
 * bounded per period of the profile: each span a sample is taken in is interned when the sample is taken
 * ({@link #intern}, which reads the {@link SpanTable} while it still holds the span) under a small number that rides
 * in the sample's label set id; its frames are made when the sample is labelled ({@link #frames}), once per span.
 *
 * <p>At most {@code maxPerPeriod} distinct spans in a period: the rest are {@link #OTHER}, {@code [span_id=other]},
 * and counted, so that a long-running service's profile does not grow with its requests. With {@code root}, a
 * sample's span is its local root span (one per request, as Pyroscope labels), else the innermost.
 *
 * <p>{@link #intern} is called by one thread, {@link #frames} by one thread (maybe another, which receives the
 * numbers through the engine's own hand-off of samples).
 */
final class SpanFrames {
    /** The number of a span past the period's bound. */
    static final int OTHER = 1;
    /** The frames of {@link #OTHER}. */
    static final Frame[] OTHER_FRAMES = {Frame.label("span_id", "other")};
    /** Spans interned and not yet reused: more than a period's bound, so that samples walked late keep theirs. */
    static final int ENTRIES = 1 << 14;
    private static final Frame[] NONE = new Frame[0];
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final SpanTable table;
    private final int maxPerPeriod;
    private final boolean root;
    private final boolean ids;
    private final long[] read = new long[4];
    /** Made at the first span interned (about 1 MiB with the frames' caches): a JVM without spans never pays it. */
    private volatile Entries entries;
    /** The spans of this period by id: open addressing, twice the bound's size; made with the entries. */
    private long[] keys;
    private int[] numbers;
    private final int tableSize;
    private int seenPeriod;
    private int admitted;
    private int next;
    private long interned;
    private long overflowed;
    private long gone;
    // The labelling thread's own.
    private Made made;

    /** The spans interned: their ids, names and endpoints, and a serial that says when an entry was reused. */
    private static final class Entries {
        final long[] traceHigh = new long[ENTRIES];
        final long[] traceLow = new long[ENTRIES];
        final long[] spanIds = new long[ENTRIES];
        final String[] names = new String[ENTRIES];
        final String[] endpoints = new String[ENTRIES];
        final int[] serials = new int[ENTRIES];
    }

    /** The labelling thread's frames of each entry, without and with the endpoint, and the serials made for. */
    private static final class Made {
        final Frame[][] plain = new Frame[ENTRIES][];
        final int[] plainSerials = new int[ENTRIES];
        final Frame[][] withEndpoint = new Frame[ENTRIES][];
        final int[] withEndpointSerials = new int[ENTRIES];
    }

    /**
     * @param ids whether samples carry their span's ids; else only the endpoint of their request (a span without
     *            one then gives no frames), interned by endpoint rather than by span
     */
    SpanFrames(SpanTable table, int maxPerPeriod, boolean root, boolean ids) {
        if (maxPerPeriod < 1 || maxPerPeriod > ENTRIES / 2) {
            throw new IllegalArgumentException("spans per period: 1 to " + ENTRIES / 2);
        }
        this.table = table;
        this.maxPerPeriod = maxPerPeriod;
        this.root = root;
        this.ids = ids;
        this.tableSize = Integer.highestOneBit(maxPerPeriod * 2 - 1) << 1;
        this.seenPeriod = table.period();
    }

    /**
     * The number of the span of handle {@code handle} (a {@link SpanTable} handle) in this period: 0 when the table no
     * longer holds it, {@link #OTHER} past the bound, else 2 or more (below {@code 2 + ENTRIES}).
     */
    int intern(int handle) {
        if (!table.holds(handle)) {
            gone++;
            table.countGone();
            return 0;
        }
        String name = table.read(handle, read);
        String endpoint = table.endpoint(handle);
        if (!table.holds(handle)) {
            gone++;
            table.countGone();
            return 0;
        }
        if (!ids && endpoint == null) {
            return 0;
        }
        long key = !ids ? textKey(endpoint) : root && read[3] != 0 ? read[3] : read[2];
        Entries e = entries;
        if (e == null) {
            keys = new long[tableSize];
            numbers = new int[tableSize];
            e = new Entries();
            entries = e;
        }
        int period = table.period();
        if (period != seenPeriod) {
            seenPeriod = period;
            admitted = 0;
            Arrays.fill(numbers, 0);
        }
        int mask = keys.length - 1;
        int at = Long.hashCode(key * 0x9E3779B97F4A7C15L) & mask;
        while (numbers[at] != 0) {
            if (keys[at] == key) {
                return numbers[at];
            }
            at = (at + 1) & mask;
        }
        if (admitted >= maxPerPeriod) {
            overflowed++;
            table.countOverflow();
            return OTHER;
        }
        admitted++;
        interned++;
        int entry = next;
        next = (next + 1) % ENTRIES;
        e.traceHigh[entry] = read[0];
        e.traceLow[entry] = read[1];
        e.spanIds[entry] = key;
        e.names[entry] = name;
        e.endpoints[entry] = endpoint;
        e.serials[entry]++;
        keys[at] = key;
        numbers[at] = 2 + entry;
        return 2 + entry;
    }

    /**
     * The frames of span number {@code number} (an answer of {@link #intern}); none for 0. With {@code endpoint}, an
     * {@code [endpoint=…]} frame first where the span's request has one (the sample's own labels have none).
     */
    Frame[] frames(int number, boolean endpoint) {
        if (number == 0) {
            return NONE;
        }
        if (number == OTHER) {
            return ids ? OTHER_FRAMES : NONE;
        }
        int entry = number - 2;
        Entries e = entries;
        if (entry < 0 || entry >= ENTRIES || e == null) {
            return NONE;
        }
        if (made == null) {
            made = new Made();
        }
        boolean withEndpoint = endpoint && e.endpoints[entry] != null;
        Frame[][] cache = withEndpoint ? made.withEndpoint : made.plain;
        int[] cacheSerials = withEndpoint ? made.withEndpointSerials : made.plainSerials;
        Frame[] frames = cache[entry];
        if (frames == null || cacheSerials[entry] != e.serials[entry]) {
            frames = make(e, entry, withEndpoint);
            cache[entry] = frames;
            cacheSerials[entry] = e.serials[entry];
        }
        return frames;
    }

    private Frame[] make(Entries e, int entry, boolean withEndpoint) {
        String name = e.names[entry];
        Frame[] frames = new Frame[(withEndpoint ? 1 : 0) + (ids ? (name == null ? 2 : 3) : 0)];
        int n = 0;
        // In the order of their keys, as a set's labels are.
        if (withEndpoint) {
            frames[n++] = Frame.label("endpoint", e.endpoints[entry]);
        }
        if (ids) {
            frames[n++] = Frame.label("span_id", hex(e.spanIds[entry], 0L, false));
            if (name != null) {
                frames[n++] = Frame.label("span_name", name);
            }
            frames[n] = Frame.label("trace_id", hex(e.traceHigh[entry], e.traceLow[entry], true));
        }
        return frames;
    }

    /** A 64-bit hash of {@code s} (FNV-1a over its chars): endpoints are keyed by it where ids are not kept. */
    private static long textKey(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    /** Lower-case hex of one id of 8 bytes, or of two (a trace id of 16). */
    static String hex(long high, long low, boolean both) {
        char[] c = new char[both ? 32 : 16];
        int i = 0;
        if (both) {
            for (int shift = 60; shift >= 0; shift -= 4) {
                c[i++] = HEX[(int) (high >>> shift) & 15];
            }
            high = low;
        }
        for (int shift = 60; shift >= 0; shift -= 4) {
            c[i++] = HEX[(int) (high >>> shift) & 15];
        }
        return new String(c);
    }

    /** Spans interned so far, in all periods. */
    long interned() {
        return interned;
    }

    /** Samples whose span was past a period's bound. */
    long overflowed() {
        return overflowed;
    }

    /** Samples whose span the table no longer held when they were taken. */
    long gone() {
        return gone;
    }
}
