package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.hotspot.census.CodeHeapCensus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The code cache's history as censuses make it: which blob held a pc at a sample's time, for walks made after the JIT
 * freed or replaced the code.
 */
class CodeCacheHistoryTest {
    private static final long MS = 1_000_000L;
    private static final long NMETHOD = 0x7f00_0000_1000L;
    private static final long HEAP = 0x7f20_0000_0000L;
    private static final long A = HEAP + 0x1000;
    private static final long B = HEAP + 0x4000;
    private static final long METHOD_1 = 0x8000_1000L;
    private static final long METHOD_2 = 0x8000_2000L;

    private final ListCensus census = new ListCensus();
    /**
     * What the index can say of a blob the census finds gone, by its start: the reading the walker made of it alive,
     * or its header where it is still unchanged; none where neither.
     */
    private final Map<Long, CodeBlobInfo> readings = new HashMap<>();
    private final CodeCacheHistory history = new CodeCacheHistory(census, new long[CodeHeapCensus.LAYOUT_WORDS],
            e -> {
                CodeBlobInfo b = readings.get(e.start);
                return b != null && e.is(b) ? b : null;
            });

    @Test
    void aSampleWalkedAfterItsCodeWasFreedIsNamedByThatCode() {
        CodeBlobInfo a = blob(A, A + 0x400, METHOD_1);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        assertThat(history.at(A + 0x90, 100 * MS, a)).as("read alive").isSameAs(a);
        readings.put(A, a);
        history.census(150 * MS, new long[0], 0);
        census.set();
        history.census(200 * MS, new long[0], 0);

        assertThat(history.at(A + 0x90, 120 * MS, null)).as("seen before and after the sample").isSameAs(a);
        assertThat(history.at(A + 0x90, 160 * MS, null)).as("seen before it and gone at the next census").isSameAs(a);
        assertThat(history.at(A + 0x90, 210 * MS, null)).as("taken after the census found it gone").isNull();
        assertThat(history.namedLate()).isEqualTo(2);
        assertThat(history.ambiguous()).isZero();
    }

    @Test
    void compiledCodeIsReadAsACensusFirstFindsItSoThatCodeOverItsHeaderLaterDoesNotUnnameIt() {
        census.set(row(B, B + 0x100, METHOD_2, 3));
        history.census(100 * MS, new long[0], 0);
        CodeBlobInfo a = blob(A, A + 0x400, METHOD_1);
        readings.put(A, a);
        census.set(row(A, A + 0x400, METHOD_1, 7), row(B, B + 0x100, METHOD_2, 3));
        history.census(150 * MS, new long[0], 0);
        // Freed, and other code written over its header, before any walk or census read it again.
        readings.remove(A);
        census.set(row(B, B + 0x100, METHOD_2, 3));
        history.census(200 * MS, new long[0], 0);

        assertThat(history.at(A + 0x90, 170 * MS, null)).as("a sample between the census that found it and its end")
                .isSameAs(a);
        assertThat(history.unread()).isZero();
    }

    @Test
    void theFirstCensusReadsItsNewestCompilations() {
        CodeBlobInfo a = blob(A, A + 0x400, METHOD_1);
        CodeBlobInfo b = blob(B, B + 0x100, METHOD_2);
        readings.put(A, a);
        readings.put(B, b);
        census.set(row(A, A + 0x400, METHOD_1, 7), row(B, B + 0x100, METHOD_2, 3));
        history.census(100 * MS, new long[0], 0);
        readings.clear();
        census.set();
        history.census(150 * MS, new long[0], 0);

        assertThat(history.at(A + 0x90, 120 * MS, null)).isSameAs(a);
        assertThat(history.at(B + 0x10, 120 * MS, null)).isSameAs(b);
        assertThat(history.unread()).isZero();
    }

    @Test
    void codeReplacedBetweenTwoCensusesLeavesTheSamplesBetweenThemUnnamed() {
        CodeBlobInfo old = blob(A, A + 0x400, METHOD_1);
        CodeBlobInfo replacement = blob(A, A + 0x300, METHOD_2);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        history.at(A + 0x90, 100 * MS, old);
        readings.put(A, old);
        census.set(row(A, A + 0x300, METHOD_2, 9));
        history.census(150 * MS, new long[0], 0);

        assertThat(history.at(A + 0x90, 90 * MS, replacement)).as("before the first census: the old code")
                .isSameAs(old);
        assertThat(history.at(A + 0x90, 120 * MS, replacement)).as("either could have run then").isNull();
        assertThat(history.ambiguous()).isEqualTo(1);
        assertThat(history.at(A + 0x90, 150 * MS, replacement)).as("seen at the census at the sample's time")
                .isSameAs(replacement);
        assertThat(history.at(A + 0x90, 170 * MS, replacement)).as("after the last change").isSameAs(replacement);
    }

    @Test
    void codeFreedAndTheSpaceLeftEmptyForACensusIsNotAmbiguous() {
        CodeBlobInfo old = blob(A, A + 0x400, METHOD_1);
        CodeBlobInfo next = blob(A, A + 0x200, METHOD_2);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        history.at(A + 0x90, 100 * MS, old);
        readings.put(A, old);
        census.set();
        history.census(150 * MS, new long[0], 0);
        census.set(row(A, A + 0x200, METHOD_2, 9));
        history.census(200 * MS, new long[0], 0);

        assertThat(history.at(A + 0x90, 140 * MS, next)).as("before it was found gone").isSameAs(old);
        assertThat(history.at(A + 0x90, 170 * MS, next)).as("after: only the new code could have run there")
                .isSameAs(next);
        assertThat(history.ambiguous()).isZero();
    }

    @Test
    void aGoneBlobNeverReadAliveIsReadWhenFoundGoneIfItsHeaderIsStillThere() {
        census.set(row(A, A + 0x400, METHOD_1, 7), row(B, B + 0x100, METHOD_2, 8));
        history.census(100 * MS, new long[0], 0);
        history.census(150 * MS, new long[0], 0);
        readings.put(A, blob(A, A + 0x400, METHOD_1));
        census.set();
        history.census(200 * MS, new long[0], 0);

        CodeBlobInfo a = history.at(A + 0x10, 120 * MS, null);
        assertThat(a).isNotNull();
        assertThat(a.method()).isEqualTo(METHOD_1);
        assertThat(history.at(B + 0x10, 120 * MS, null)).as("its header overwritten before the census").isNull();
        assertThat(history.unread()).isEqualTo(1);
    }

    @Test
    void nothingChangedSinceTheSampleAnswersWithTheCodeThereNow() {
        CodeBlobInfo now = blob(A, A + 0x400, METHOD_1);
        assertThat(history.at(A + 0x10, 50 * MS, now)).as("before any census").isSameAs(now);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        history.census(150 * MS, new long[0], 0);

        assertThat(history.at(A + 0x10, 120 * MS, now)).isSameAs(now);
        assertThat(history.at(A + 0x10, 20 * MS, now)).as("the first census is not a change").isSameAs(now);
        assertThat(history.namedLate()).isZero();
    }

    @Test
    void aCensusCutShortChangesNothing() {
        CodeBlobInfo a = blob(A, A + 0x400, METHOD_1);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        history.at(A + 0x10, 100 * MS, a);
        census.cutShort = true;
        census.set();

        assertThat(history.census(150 * MS, new long[0], 0)).isFalse();
        assertThat(history.cutShort()).isEqualTo(1);
        assertThat(history.at(A + 0x10, 140 * MS, a)).as("not taken for gone").isSameAs(a);
    }

    @Test
    void blobsGoneLongBeforeTheNewestSampleAreForgottenAndCounted() {
        CodeBlobInfo a = blob(A, A + 0x400, METHOD_1);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        history.at(A + 0x10, 100 * MS, a);
        census.set();
        history.census(150 * MS, new long[0], 0);
        assertThat(history.retiredCount()).isEqualTo(1);

        long late = 150 * MS + CodeCacheHistory.KEEP_NANOS + 1;
        history.at(B, late, null);
        census.set(row(B, B + 0x100, METHOD_2, 8));
        history.census(late + 50 * MS, new long[0], 0);

        assertThat(history.retiredCount()).isZero();
        assertThat(history.at(A + 0x10, 120 * MS, null)).isNull();
        assertThat(history.forgotten()).isEqualTo(1);
    }

    @Test
    void aGoneBlobsMemoryIsUntouchedUntilABlobIsSeenOverIt() {
        CodeBlobInfo a = blob(A, A + 0x400, METHOD_1);
        census.set(row(A, A + 0x400, METHOD_1, 7));
        history.census(100 * MS, new long[0], 0);
        history.at(A + 0x10, 100 * MS, a);
        readings.put(A, a);
        census.set();
        history.census(150 * MS, new long[0], 0);
        CodeCacheHistory.Entry gone = history.retiredEntry(a);
        assertThat(gone).isNotNull();
        assertThat(history.untouchedSince(gone)).isTrue();

        census.set(row(A + 0x200, A + 0x300, METHOD_2, 9));
        history.census(200 * MS, new long[0], 0);

        assertThat(history.untouchedSince(gone)).isFalse();
        assertThat(history.retiredEntry(blob(A, A + 0x400, METHOD_2))).as("another reading of that place").isNull();
    }

    private static CodeBlobInfo blob(long start, long end, long method) {
        return new CodeBlobInfo(start, end, BlobKind.NMETHOD, "nmethod", start + 0x80, end - 0x80, 4, 8, method, 4,
                0, 0, 16, 0, 0, 0, 0, start + 0x80);
    }

    private static long[] row(long start, long end, long method, int compileId) {
        return new long[] {start, end, NMETHOD, method, compileId};
    }

    /** A census that reports the rows it was given. */
    private static final class ListCensus implements CodeHeapCensus {
        private final List<long[]> rows = new ArrayList<>();
        boolean cutShort;

        void set(long[]... given) {
            rows.clear();
            rows.addAll(List.of(given));
            rows.sort(Comparator.comparingLong(r -> r[0]));
        }

        @Override
        public int take(long[] heaps, int heapCount, long[] layout) {
            return cutShort ? -1 : rows.size();
        }

        @Override
        public long start(int row) {
            return rows.get(row)[0];
        }

        @Override
        public long end(int row) {
            return rows.get(row)[1];
        }

        @Override
        public long name(int row) {
            return rows.get(row)[2];
        }

        @Override
        public long method(int row) {
            return rows.get(row)[3];
        }

        @Override
        public int compileId(int row) {
            return (int) rows.get(row)[4];
        }
    }
}
