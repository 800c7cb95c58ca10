package io.mixflame.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StringKeyedTableTest {

    @Test
    void findsEveryKeyItHoldsAcrossGrowthAndNothingElse() {
        StringKeyedTable<Integer> table = new StringKeyedTable<>();
        for (int i = 0; i < 5_000; i++) {
            table.put("Type" + i + "::_field", i);
        }
        assertThat(table.size()).isEqualTo(5_000);
        for (int i = 0; i < 5_000; i++) {
            assertThat(table.get("Type" + i + "::_field")).isEqualTo(i);
        }
        assertThat(table.get("Type5000::_field")).isNull();
        assertThat(table.get("")).isNull();
    }

    @Test
    void keysWithTheSameHashStayApart() {
        // "Aa" and "BB" share a hash code, and so does every string made of them in the same order of lengths.
        StringKeyedTable<String> table = new StringKeyedTable<>();
        String[] colliding = {"AaAa", "AaBB", "BBAa", "BBBB"};
        assertThat("AaAa".hashCode()).isEqualTo("BBBB".hashCode());
        for (String s : colliding) {
            table.put(s, s.toLowerCase());
        }
        for (String s : colliding) {
            assertThat(table.get(s)).isEqualTo(s.toLowerCase());
        }
        assertThat(table.size()).isEqualTo(4);
    }

    @Test
    void aSecondPutReplacesTheValueWithoutAddingAnEntry() {
        StringKeyedTable<Long> table = new StringKeyedTable<>();
        table.put("CodeBlob", 8L);
        table.put("CodeBlob", 16L);
        assertThat(table.get("CodeBlob")).isEqualTo(16L);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void forEachVisitsEveryEntryOnce() {
        StringKeyedTable<Integer> table = new StringKeyedTable<>();
        for (int i = 0; i < 300; i++) {
            table.put("k" + i, i);
        }
        Map<String, Integer> seen = new HashMap<>();
        table.forEach((k, v) -> assertThat(seen.put(k, v)).isNull());
        assertThat(seen).hasSize(300).containsEntry("k0", 0).containsEntry("k299", 299);
    }

    @Test
    void aNullValueIsRefused() {
        assertThatThrownBy(() -> new StringKeyedTable<String>().put("x", null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
