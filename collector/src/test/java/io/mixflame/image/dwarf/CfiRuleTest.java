package io.mixflame.image.dwarf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules are interned by value: equal in every component means equal, any component differing means not. */
class CfiRuleTest {
    private static final RegisterRule RA = RegisterRule.savedAt(-8);

    @Test
    void equalComponentsMakeEqualRulesWithEqualHashes() {
        CfiRule a = new CfiRule(7, 16, null, RegisterRule.SAME, RA, false);
        CfiRule b = new CfiRule(7, 16, null, new RegisterRule(RegisterRule.Kind.SAME, 0, null), RegisterRule.savedAt(-8),
                false);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    }

    @Test
    void anyComponentDifferingMakesRulesDiffer() {
        CfiRule base = new CfiRule(7, 16, null, RegisterRule.SAME, RA, false);
        List<CfiRule> others = List.of(
                new CfiRule(6, 16, null, RegisterRule.SAME, RA, false),
                new CfiRule(7, 24, null, RegisterRule.SAME, RA, false),
                new CfiRule(7, 16, null, RegisterRule.savedAt(-16), RA, false),
                new CfiRule(7, 16, null, RegisterRule.SAME, RegisterRule.savedAt(-16), false),
                new CfiRule(7, 16, null, RegisterRule.SAME, RA, true),
                new CfiRule(7, 16, null, null, RA, false));
        for (CfiRule other : others) {
            assertThat(base).as("%s", other).isNotEqualTo(other);
            assertThat(other).as("%s", other).isNotEqualTo(base);
        }
        assertThat(RegisterRule.savedAt(-8)).isNotEqualTo(new RegisterRule(RegisterRule.Kind.VALUE_AT, -8, null));
    }
}
