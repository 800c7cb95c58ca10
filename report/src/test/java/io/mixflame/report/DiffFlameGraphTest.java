package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.mixflame.profile.Profile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DiffFlameGraphTest {

    private static final Profile BEFORE = TestProfiles.with(TestProfiles.JFR_CPU)
            .addJava(50, "main;a")
            .addJava(50, "main;b")
            .build();
    private static final Profile AFTER = TestProfiles.with(TestProfiles.JFR_CPU)
            .addJava(150, "main;a")
            .addJava(50, "main;b")
            .addJava(100, "main;c")
            .build();

    private static String diff(String title) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DiffFlameGraph.write(BEFORE, AFTER, out, title);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void hasTheShapeOfTheLaterProfile() throws IOException {
        assertThat(TestProfiles.parseHtml(diff(null))).containsOnly(
                entry("main_[j];a_[j]", 150L),
                entry("main_[j];b_[j]", 50L),
                entry("main_[j];c_[j]", 100L));
    }

    @Test
    void comparesAgainstTheEarlierProfileScaledToTheSameTotal() throws IOException {
        String html = diff(null);

        // Scaled ×3: a 150 → 150 (no change), b 150 → 50 (-100), c is new.
        assertThat(html).contains("d=-100\n").contains("d=U\n").doesNotContain("d=100\n");
    }

    @Test
    void titleSaysBothEnginesAndTheScaling() throws IOException {
        assertThat(diff(null)).contains("<h1>mixflame diff: cpu profile — after: 300 samples, jfr engine; "
                + "before: 100 samples, jfr engine, scaled ×3.000 to after's total</h1>");
        assertThat(diff("release 2 vs 1")).contains("<h1>release 2 vs 1 — after: 300 samples");
    }

    @Test
    void namesFromTheApplicationCannotBreakOutOfTheScriptBlock() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DiffFlameGraph.write(BEFORE, HostileNames.profile(), out, null);

        HostileNames.assertScriptSafe(out.toString(StandardCharsets.UTF_8));
    }
}
