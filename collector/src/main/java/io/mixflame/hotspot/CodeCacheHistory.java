package io.mixflame.hotspot;

import io.mixflame.hotspot.census.CodeHeapCensus;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The code cache's recent history, from a census of its blobs every {@value #CENSUS_NANOS} ns while walks run late:
 * for each blob, when it was first and last seen and when it was first seen gone. A sample walked seconds after it was taken asks which
 * blob held its pc at its own time; the JIT may have freed that code meanwhile, or put other code in its place.
 *
 * <p>A blob seen at a census before the sample and again at one after it held the pc throughout. Otherwise a blob could
 * have held it only between the census before it was first seen and the first census that found it gone: when one
 * blob alone could have, it did (another would have had to be compiled, freed and replaced between two censuses,
 * which HotSpot does not do so fast); when two could have (one gone and the other there at the same census, the sample between), the frame
 * is left unnamed and counted rather than guessed. Blobs gone are kept {@value #KEEP_NANOS} ns behind the newest
 * sample walked, {@value #MAX_RETIRED} at most; a sample that needs one dropped before is counted too.
 *
 * <p>What the walker needs of a blob (its {@link CodeBlobInfo}) is kept from when it was read alive: by a walk, or by
 * the census that first found it ({@value #READ_AT_BIRTH} compiled blobs a census at most; the first census, the
 * newest compilations); else read when the census finds it gone if its header is still there unchanged. Not
 * thread-safe: the walking thread's, as the index.
 */
final class CodeCacheHistory {
    static final long CENSUS_NANOS = 100_000_000L;
    static final long KEEP_NANOS = 30_000_000_000L;
    static final int MAX_RETIRED = 16_384;
    /** Retired blobs looked at for one pc at most. */
    static final int MAX_SCAN = 64;
    /** Compiled blobs a census reads as it first finds them, at most: the JIT's new code of 100 ms. */
    static final int READ_AT_BIRTH = 256;

    /** One blob as the censuses saw it. */
    static final class Entry {
        final long start;
        final long end;
        final long name;
        final long method;
        final int compileId;
        /** The last census before it was seen (0: before the first census). */
        final long bornAfter;
        final long firstSeen;
        long lastSeen;
        /** The first census that found it gone; MAX_VALUE while it is there. */
        long goneBy = Long.MAX_VALUE;
        /** What the walker needs of it; null until read. */
        CodeBlobInfo info;

        Entry(long start, long end, long name, long method, int compileId, long bornAfter, long seen) {
            this.start = start;
            this.end = end;
            this.name = name;
            this.method = method;
            this.compileId = compileId;
            this.bornAfter = bornAfter;
            this.firstSeen = seen;
            this.lastSeen = seen;
        }

        boolean overlaps(long from, long to) {
            return start < to && from < end;
        }

        /** Whether the walker's reading of the blob there now is this blob. */
        boolean is(CodeBlobInfo blob) {
            return blob.start() == start && blob.end() == end && (!blob.isJava() || blob.method() == method);
        }
    }

    /** Reads what the walker needs of a blob from the JVM's memory now, or null when its header there changed. */
    interface BlobReading {
        CodeBlobInfo read(Entry blob);
    }

    /** Reads what the walker needs of a blob from a copy of its header the census took, or null when it is not it. */
    interface CopyReading {
        CodeBlobInfo read(Entry blob, ByteBuffer header);
    }

    private final CodeHeapCensus census;
    private final long[] layout;
    private final BlobReading reading;
    private final CopyReading copyReading;

    private Entry[] live = new Entry[0];
    private long[] liveStarts = new long[0];
    private int liveCount;
    private Entry[] nextLive = new Entry[0];

    private Entry[] retired = new Entry[0];
    private Entry[] spareRetired = new Entry[0];
    private long oldestRetired = Long.MAX_VALUE;
    private long[] retiredStarts = new long[0];
    private int retiredCount;
    /** For each retired blob in address order, the furthest end of it and those before it: where a scan back stops. */
    private long[] reachesPast = new long[0];
    private Entry[] gone = new Entry[64];
    private int goneCount;

    private int readAtBirth;
    private long lastCensus;
    private long lastAttempt;
    private long latestChange;
    private long newestTaken;
    private long forgottenBefore;

    private long censuses;
    private long cutShort;
    private long ambiguous;
    private long forgotten;
    private long unread;
    private long namedLate;
    private long readFromCopies;

    CodeCacheHistory(CodeHeapCensus census, long[] layout, BlobReading reading) {
        this(census, layout, reading, (blob, header) -> null);
    }

    /** With the reading of the header copies a census takes of the compiled blobs it finds new. */
    CodeCacheHistory(CodeHeapCensus census, long[] layout, BlobReading reading, CopyReading copyReading) {
        this.census = census;
        this.layout = layout.clone();
        this.reading = reading;
        this.copyReading = copyReading;
    }

    /** Whether a census is due at {@code now}: one every {@value #CENSUS_NANOS} ns at most, cut short or not. */
    boolean due(long now) {
        return lastAttempt == 0 || now - lastAttempt >= CENSUS_NANOS;
    }

    /**
     * Takes a census at {@code now} of the heaps given (their CodeHeap structures, in the order of the memory they
     * hold) and records what changed since the last.
     *
     * @return false when the census was cut short and nothing was recorded
     */
    boolean census(long now, long[] heaps, int heapCount) {
        lastAttempt = now;
        int n = census.take(heaps, heapCount, layout);
        if (n < 0) {
            cutShort++;
            return false;
        }
        censuses++;
        readAtBirth = 0;
        if (nextLive.length < n) {
            nextLive = new Entry[Math.max(n, nextLive.length * 2)];
        }
        boolean first = lastCensus == 0;
        boolean changed = false;
        int k = 0;
        int a = 0;
        int b = 0;
        while (a < liveCount || b < n) {
            Entry old = a < liveCount ? live[a] : null;
            long rowStart = b < n ? census.start(b) : Long.MAX_VALUE;
            if (old != null && old.start < rowStart) {
                retire(old, now);
                a++;
                changed = true;
            } else if (old != null && old.start == rowStart) {
                if (old.end == census.end(b) && old.name == census.name(b) && old.method == census.method(b)
                        && old.compileId == census.compileId(b)) {
                    old.lastSeen = now;
                    nextLive[k++] = old;
                } else {
                    retire(old, now);
                    nextLive[k++] = born(b, now);
                    changed = true;
                }
                a++;
                b++;
            } else {
                nextLive[k++] = born(b, now);
                b++;
                changed = true;
            }
        }
        Entry[] swap = live;
        live = nextLive;
        nextLive = swap;
        Arrays.fill(nextLive, null);
        liveCount = k;
        if (liveStarts.length < k) {
            liveStarts = new long[live.length];
        }
        for (int i = 0; i < k; i++) {
            liveStarts[i] = live[i].start;
        }
        if (changed && !first) {
            latestChange = now;
        }
        if (first) {
            readNewest();
        }
        if (goneCount > 0 || retiredCount > 0 && oldestRetired < newestTaken - KEEP_NANOS) {
            keepRetired();
        }
        lastCensus = now;
        return true;
    }

    /**
     * Says that a census at {@code time}, which wrote no batch of its own, found the blobs as the last one left them
     * (censuses taken ahead of the walker, {@link io.mixflame.hotspot.census.CodeCensusLog}): they were all there then,
     * and what the next census finds new came after it.
     */
    void unchangedAt(long time) {
        if (lastCensus == 0 || time <= lastCensus) {
            return;
        }
        for (int i = 0; i < liveCount; i++) {
            live[i].lastSeen = time;
        }
        lastCensus = time;
    }

    private Entry born(int row, long now) {
        Entry e = new Entry(census.start(row), census.end(row), census.name(row), census.method(row),
                census.compileId(row), lastCensus, now);
        // Compiled code the JIT made since the last census is read now, while it is there: the JIT may free it and
        // put other code over its header before a late walk or the census that finds it gone reads it. The first
        // census reads its newest compilations instead (readNewest): its thousands of blobs would each cost a reading.
        ByteBuffer copy = e.method != 0 ? census.header(row) : null;
        if (copy != null) {
            // Copied by the census itself as it found the blob: the blob may be long gone by now.
            e.info = copyReading.read(e, copy);
            readFromCopies += e.info != null ? 1 : 0;
        } else if (lastCensus != 0 && e.method != 0 && readAtBirth < READ_AT_BIRTH) {
            readAtBirth++;
            e.info = reading.read(e);
        }
        return e;
    }

    /**
     * Reads the {@value #READ_AT_BIRTH} compiled blobs of the newest compilations the first census found: the code
     * likeliest to be freed and replaced while walks are late (deoptimized, recompiled at another tier).
     */
    private void readNewest() {
        int compiled = 0;
        for (int i = 0; i < liveCount; i++) {
            compiled += live[i].method != 0 ? 1 : 0;
        }
        long[] byId = new long[compiled];
        int c = 0;
        for (int i = 0; i < liveCount; i++) {
            if (live[i].method != 0) {
                byId[c++] = (long) live[i].compileId << 32 | i;
            }
        }
        Arrays.sort(byId);
        for (int j = byId.length - 1; j >= Math.max(0, byId.length - READ_AT_BIRTH); j--) {
            Entry e = live[(int) byId[j]];
            if (e.info == null) {
                e.info = reading.read(e);
            }
        }
    }

    private void retire(Entry e, long now) {
        e.goneBy = now;
        if (e.info == null) {
            e.info = reading.read(e);
        }
        if (goneCount == gone.length) {
            gone = Arrays.copyOf(gone, gone.length * 2);
        }
        gone[goneCount++] = e;
    }

    /**
     * Merges the blobs just found gone into the retired ones (both in address order), dropping those too old, into the
     * spare array: nothing is allocated once the arrays have grown to what the history holds.
     */
    private void keepRetired() {
        long keepFrom = newestTaken - KEEP_NANOS;
        int total = retiredCount + goneCount;
        if (spareRetired.length < total) {
            spareRetired = new Entry[Math.max(16, Math.max(total, spareRetired.length * 2))];
        }
        Entry[] merged = spareRetired;
        int m = 0;
        int i = 0;
        int j = 0;
        while (i < retiredCount || j < goneCount) {
            Entry e = j >= goneCount || (i < retiredCount && retired[i].start <= gone[j].start) ? retired[i++]
                    : gone[j++];
            if (e.goneBy >= keepFrom) {
                merged[m++] = e;
            } else {
                forgottenBefore = Math.max(forgottenBefore, e.goneBy);
            }
        }
        Arrays.fill(gone, 0, goneCount, null);
        goneCount = 0;
        if (m > MAX_RETIRED) {
            // The oldest go first: the bound is what a sample can be late by, in blobs the JIT freed meanwhile. A
            // rare pass (the JIT freeing thousands of blobs within the time kept), allowed its scratch array.
            long[] goneTimes = new long[m];
            for (int x = 0; x < m; x++) {
                goneTimes[x] = merged[x].goneBy;
            }
            Arrays.sort(goneTimes);
            long cut = goneTimes[m - MAX_RETIRED];
            int kept = 0;
            for (int x = 0; x < m; x++) {
                if (merged[x].goneBy >= cut && kept < MAX_RETIRED) {
                    merged[kept++] = merged[x];
                } else {
                    forgottenBefore = Math.max(forgottenBefore, merged[x].goneBy);
                }
            }
            Arrays.fill(merged, kept, m, null);
            m = kept;
        }
        Entry[] previous = retired;
        Arrays.fill(previous, 0, retiredCount, null);
        retired = merged;
        spareRetired = previous;
        retiredCount = m;
        if (retiredStarts.length < retired.length) {
            retiredStarts = new long[retired.length];
            reachesPast = new long[retired.length];
        }
        long reach = 0;
        oldestRetired = Long.MAX_VALUE;
        for (int x = 0; x < m; x++) {
            retiredStarts[x] = merged[x].start;
            reach = Math.max(reach, merged[x].end);
            reachesPast[x] = reach;
            oldestRetired = Math.min(oldestRetired, merged[x].goneBy);
        }
    }

    /**
     * The blob that held {@code pc} when a sample was taken at {@code taken}, given {@code now}, the blob that holds
     * it now (or null): {@code now} itself when no census has seen the code cache change since the sample.
     *
     * @return null when no blob held it then, or when which did cannot be told
     */
    CodeBlobInfo at(long pc, long taken, CodeBlobInfo now) {
        if (taken > newestTaken) {
            newestTaken = taken;
        }
        if (lastCensus == 0 || taken >= latestChange) {
            return now;
        }
        Entry certain = null;
        Entry possible = null;
        int possibles = 0;
        int i = floor(liveStarts, liveCount, pc);
        if (i >= 0 && live[i].end > pc) {
            Entry e = live[i];
            if (e.firstSeen <= taken) {
                certain = e;
            } else if (e.bornAfter < taken) {
                possible = e;
                possibles++;
            }
        }
        int scanned = 0;
        for (int j = floor(retiredStarts, retiredCount, pc); certain == null && j >= 0 && reachesPast[j] > pc; j--) {
            if (++scanned > MAX_SCAN) {
                // Blobs piled on one place beyond reason: which held the pc is not worth telling.
                possibles = 2;
                break;
            }
            Entry e = retired[j];
            if (e.end <= pc) {
                continue;
            }
            if (e.firstSeen <= taken && taken <= e.lastSeen) {
                certain = e;
            } else if (e.bornAfter < taken && taken < e.goneBy) {
                possible = e;
                possibles++;
            }
        }
        Entry chosen = certain != null ? certain : possibles == 1 ? possible : null;
        if (chosen == null) {
            if (possibles > 1) {
                ambiguous++;
            } else if (taken < forgottenBefore) {
                forgotten++;
            }
            return null;
        }
        if (chosen.goneBy == Long.MAX_VALUE) {
            if (now != null && chosen.is(now)) {
                chosen.info = now;
                return now;
            }
            if (chosen.info == null) {
                chosen.info = reading.read(chosen);
            }
        } else {
            namedLate++;
        }
        if (chosen.info == null) {
            unread++;
        }
        return chosen.info;
    }

    /**
     * The blob gone from the code cache whose reading {@code blob} is, or null when it is not one: for the scope
     * decoder, which must not read a gone blob's debug information where new code may have been put since.
     */
    Entry retiredEntry(CodeBlobInfo blob) {
        for (int j = floor(retiredStarts, retiredCount, blob.start()); j >= 0 && retiredStarts[j] == blob.start(); j--) {
            if (retired[j].info == blob) {
                return retired[j];
            }
        }
        return null;
    }

    /** Whether no blob has been seen over a gone blob's bytes since it was last seen: its memory is as it was. */
    boolean untouchedSince(Entry e) {
        // Live blobs do not overlap one another: the last one starting inside the range is the one that could reach it.
        int i = floor(liveStarts, liveCount, e.end - 1);
        if (i >= 0 && live[i].end > e.start) {
            return false;
        }
        for (int j = floor(retiredStarts, retiredCount, e.end - 1); j >= 0 && reachesPast[j] > e.start; j--) {
            Entry r = retired[j];
            if (r != e && r.firstSeen > e.lastSeen && r.overlaps(e.start, e.end)) {
                return false;
            }
        }
        return true;
    }

    /** The last index whose start is at or below {@code pc}, or -1. */
    private static int floor(long[] starts, int count, long pc) {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (starts[mid] <= pc) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** Censuses taken so far. */
    long censuses() {
        return censuses;
    }

    /** Censuses cut short by the JIT's changes under them, and skipped. */
    long cutShort() {
        return cutShort;
    }

    /** Lookups whose code changed around the sample's time, two blobs either of which could have held the pc. */
    long ambiguous() {
        return ambiguous;
    }

    /** Lookups that needed a blob gone before the history kept. */
    long forgotten() {
        return forgotten;
    }

    /** Lookups that found the blob of the sample's time but not what the walker needs of it. */
    long unread() {
        return unread;
    }

    /** Lookups answered by a blob the JIT had freed or replaced by the time of the walk. */
    long namedLate() {
        return namedLate;
    }

    /** Compiled blobs read, as they were found, from the copy of their header their census took. */
    long readFromCopies() {
        return readFromCopies;
    }

    /** The blobs of the last census, in address order: for tests. */
    List<Entry> live() {
        return List.of(Arrays.copyOf(live, liveCount));
    }

    /** Blobs gone and kept. */
    int retiredCount() {
        return retiredCount;
    }
}
