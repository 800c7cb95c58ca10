package io.mixflame.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StackCountTableTest {

    private static int find(StackCountTable t, int... ids) {
        return t.find(ids, ids.length, StackCountTable.hash(ids, ids.length));
    }

    private static int add(StackCountTable t, int... ids) {
        return t.add(ids, ids.length, StackCountTable.hash(ids, ids.length));
    }

    @Test
    void stacksAreNumberedInTheOrderAddedAndFoundAcrossGrowth() {
        StackCountTable t = new StackCountTable();
        for (int i = 0; i < 5_000; i++) {
            assertThat(add(t, 1, i, i % 7)).isEqualTo(i);
        }
        for (int i = 0; i < 5_000; i++) {
            assertThat(find(t, 1, i, i % 7)).isEqualTo(i);
            assertThat(t.ids(i)).containsExactly(1, i, i % 7);
        }
        assertThat(find(t, 1, 5_000, 5_000 % 7)).isEqualTo(-1);
    }

    @Test
    void aPrefixOrALongerStackIsAnotherStack() {
        StackCountTable t = new StackCountTable();
        add(t, 1, 2, 3);
        assertThat(find(t, 1, 2)).isEqualTo(-1);
        assertThat(find(t, 1, 2, 3, 4)).isEqualTo(-1);
        // Only the first length ids of a longer probe count.
        int[] probe = {1, 2, 3, 99};
        assertThat(t.find(probe, 3, StackCountTable.hash(probe, 3))).isZero();
    }

    @Test
    void stacksWithTheSameHashStayApart() {
        StackCountTable t = new StackCountTable();
        // 31 * a + b collides for (0, 31) and (1, 0).
        assertThat(StackCountTable.hash(new int[] {0, 31}, 2)).isEqualTo(StackCountTable.hash(new int[] {1, 0}, 2));
        int a = add(t, 0, 31);
        int b = add(t, 1, 0);
        assertThat(find(t, 0, 31)).isEqualTo(a);
        assertThat(find(t, 1, 0)).isEqualTo(b);
    }

    @Test
    void countsStopAtTheLargestLongAndClearStartsAgain() {
        StackCountTable t = new StackCountTable();
        int e = add(t, 5);
        t.count(e, 2, 20);
        t.count(e, Long.MAX_VALUE, 1);
        assertThat(t.samples(e)).isEqualTo(Long.MAX_VALUE);
        assertThat(t.weight(e)).isEqualTo(21);
        t.clear();
        assertThat(t.size()).isZero();
        assertThat(find(t, 5)).isEqualTo(-1);
        assertThat(add(t, 6)).isZero();
        assertThat(t.samples(0)).isZero();
    }
}
