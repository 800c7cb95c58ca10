package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IndexTableTest {

    @Test
    void entryZeroIsTheEmptyValueAndTheFirstValueAskedForIsOne() {
        IndexTable<String> strings = new IndexTable<>("");

        assertThat(strings.index("")).isZero();
        assertThat(strings.index("a")).isEqualTo(1);
        assertThat(strings.index("b")).isEqualTo(2);
        assertThat(strings.entries()).containsExactly("", "a", "b");
        assertThat(strings.get(0)).isEmpty();
    }

    @Test
    void aTableWithoutAnEmptyValueKeepsEntryZeroAsAPlaceholder() {
        IndexTable<String> names = new IndexTable<>(null);

        assertThat(names.index("a")).isEqualTo(1);
        assertThat(names.get(0)).isNull();
        assertThat(names.size()).isEqualTo(2);
        assertThatThrownBy(() -> names.index(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void equalValuesShareOneIndex() {
        IndexTable<String> strings = new IndexTable<>("");
        int first = strings.index("frame");
        strings.index("other");

        assertThat(strings.index(new String("frame"))).isEqualTo(first);
        assertThat(strings.size()).isEqualTo(3);
    }

    @Test
    void aNewValuePastTheBoundFailsWhileKnownValuesStillHaveTheirIndex() {
        IndexTable<String> strings = new IndexTable<>("", 3);
        strings.index("a");
        strings.index("b");

        assertThatThrownBy(() -> strings.index("c"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bound of 3 entries");
        assertThat(strings.index("b")).isEqualTo(2);
        assertThat(strings.index("")).isZero();
        assertThat(strings.size()).isEqualTo(3);
    }
}
