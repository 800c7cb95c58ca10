package io.mixflame.capture.labels;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabelSetsTest {

    @Test
    void aSetIsReachedFromNoLabelsByItsLabelsInAnyOrder() {
        LabelSets sets = new LabelSets(16);
        int tenant = sets.with(LabelSets.NONE, "tenant", "acme");
        int both = sets.with(tenant, "job", "export");
        int otherWay = sets.with(sets.with(LabelSets.NONE, "job", "export"), "tenant", "acme");

        assertThat(both).isEqualTo(otherWay).isNotIn(LabelSets.NONE, LabelSets.OTHER, tenant);
        assertThat(sets.keys(both)).containsExactly("job", "tenant");
        assertThat(sets.values(both)).containsExactly("export", "acme");
        assertThat(sets.with(LabelSets.NONE, "tenant", "acme")).isEqualTo(tenant);
    }

    @Test
    void anInnerValueReplacesTheOuterOneAndNullRemovesAKey() {
        LabelSets sets = new LabelSets(16);
        int outer = sets.with(LabelSets.NONE, "endpoint", "/a");
        int inner = sets.with(outer, "endpoint", "/b");

        assertThat(sets.keys(inner)).containsExactly("endpoint");
        assertThat(sets.values(inner)).containsExactly("/b");
        assertThat(sets.with(inner, "endpoint", null)).isEqualTo(LabelSets.NONE);
    }

    @Test
    void pastTheBoundEverySetIsOtherAndStaysSo() {
        LabelSets sets = new LabelSets(10);
        for (int i = 0; i < 100_000; i++) {
            int id = sets.with(LabelSets.NONE, "request", "id-" + i);
            assertThat(id).isLessThan(10);
        }
        assertThat(sets.size()).isEqualTo(10);
        assertThat(sets.overflowed()).isTrue();
        assertThat(sets.with(LabelSets.NONE, "request", "id-99999")).isEqualTo(LabelSets.OTHER);
        assertThat(sets.with(LabelSets.OTHER, "tenant", "acme")).isEqualTo(LabelSets.OTHER);
        // Known sets are still found.
        assertThat(sets.values(sets.with(LabelSets.NONE, "request", "id-0"))).containsExactly("id-0");
    }

    @Test
    void longValuesAreCutSoThatTheyTakeBoundedMemory() {
        LabelSets sets = new LabelSets(16);
        int id = sets.with(LabelSets.NONE, "q", "x".repeat(10_000));

        assertThat(sets.values(id)[0]).hasSize(LabelSets.MAX_VALUE_CHARS);
        assertThat(sets.with(LabelSets.NONE, "q", "x".repeat(20_000))).isEqualTo(id);
    }

    @Test
    void aSetHasAtMostMaxLabels() {
        LabelSets sets = new LabelSets(64);
        int id = LabelSets.NONE;
        for (int i = 0; i < LabelSets.MAX_LABELS; i++) {
            id = sets.with(id, "k" + i, "v");
        }
        assertThat(sets.keys(id)).hasSize(LabelSets.MAX_LABELS);
        assertThat(sets.with(id, "one_more", "v")).isEqualTo(LabelSets.OTHER);
    }

    @Test
    void keysAreNamesAQueryLanguageTakesUnquoted() {
        assertThat(LabelKeys.valid("endpoint")).isTrue();
        assertThat(LabelKeys.valid("http.route")).isTrue();
        assertThat(LabelKeys.valid("_tenant-id2")).isTrue();
        assertThat(LabelKeys.valid("a".repeat(64))).isTrue();
        assertThat(LabelKeys.valid("a".repeat(65))).isFalse();
        assertThat(LabelKeys.valid("")).isFalse();
        assertThat(LabelKeys.valid(null)).isFalse();
        assertThat(LabelKeys.valid("2xx")).isFalse();
        assertThat(LabelKeys.valid("a=b")).isFalse();
        assertThat(LabelKeys.valid("a b")).isFalse();
        assertThat(LabelKeys.valid("a;b")).isFalse();
        assertThat(LabelKeys.valid("a]")).isFalse();
        assertThat(LabelKeys.valid("thread")).as("pprof's label of the thread").isFalse();
        assertThat(LabelKeys.valid("labels")).as("the profiler's own").isFalse();
    }
}
