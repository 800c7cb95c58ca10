package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.mixflame.agent.labels.LabelOption;
import io.mixflame.engine.wall.ThreadState;
import io.mixflame.testsupport.BuiltJars;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What docs/options.md and docs/wall-clock.md say the agent takes, held against what it takes. */
class DocumentedOptionsTest {
    private static final Pattern FIRST_CELL_OPTION = Pattern.compile("`([a-z][a-z-]*)(?:\\[?=[^`]*)?`");

    private static String doc(String name) throws Exception {
        return Files.readString(BuiltJars.projectRoot().resolve("docs").resolve(name), StandardCharsets.UTF_8);
    }

    /** The option keys the table's first column names. */
    private static List<String> documentedKeys() throws Exception {
        List<String> keys = new ArrayList<>();
        for (String line : doc("options.md").lines().toList()) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String first = line.substring(2, line.indexOf(" | "));
            Matcher m = FIRST_CELL_OPTION.matcher(first);
            while (m.find()) {
                keys.add(m.group(1));
            }
        }
        return keys;
    }

    @Test
    void everyOptionTheTablesNameIsTakenAndEveryIgnoredOneIsInItsTable() throws Exception {
        List<String> documented = documentedKeys();
        assertThat(documented).contains("interval", "file", "loop", "collapsed", "traces", "tenant", "header",
                "options", "cstack");
        for (String key : documented) {
            // Accepted (a value may be wrong for it, never the key itself), or ignored as async-profiler's.
            assertThatCode(() -> {
                try {
                    AgentOptions.parse(StartupOptions.compose(key, false, java.util.Map.of(),
                            new java.util.Properties()).text());
                } catch (IllegalArgumentException e) {
                    assertThat(e.getMessage()).as(key).doesNotContain("unknown option");
                }
            }).doesNotThrowAnyException();
        }
        for (String ignored : AgentOptions.ASYNC_PROFILER_IGNORED) {
            assertThat(documented).as("async-profiler's ignored options in their table").contains(ignored);
        }
    }

    @Test
    void unitsStatesAndLabelValuesAreAllDocumented() throws Exception {
        String options = doc("options.md");
        String intervalRow = options.lines().filter(l -> l.startsWith("| `interval=N`")).findFirst().orElseThrow();
        for (String unit : List.of("ns", "us", "ms", "s", "m", "h", "d")) {
            assertThat(intervalRow).as("the interval's units").contains("`" + unit + "`");
            assertThatCode(() -> AgentOptions.parse("loop=1" + unit)).as(unit).satisfiesAnyOf(
                    t -> assertThat(t).isNull(), t -> assertThat(t).hasMessageContaining("below the minimum"));
        }
        String labelsRow = options.lines().filter(l -> l.startsWith("| `labels")).findFirst().orElseThrow();
        for (LabelOption o : LabelOption.values()) {
            assertThat(labelsRow).contains(o.name().toLowerCase(Locale.ROOT));
        }
        String wall = doc("wall-clock.md").replace('\n', ' '); // as Markdown reads a paragraph
        for (ThreadState s : ThreadState.values()) {
            assertThat(wall).as("wall-clock.md names each state's frame").contains("`" + s.frame().name() + "`");
        }
        assertThat(options).as("a comma cannot be escaped").doesNotContain("for a comma in a value");
    }
}
