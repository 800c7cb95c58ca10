package io.mixflame.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.agent.AgentOptions;
import io.mixflame.engine.ProfilingEvent;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecordArgumentsTest {

    @Test
    void asprofsShortFlagsSetDurationFileEventIntervalAndThreads() {
        RecordArguments a = RecordArguments.parse(List.of("--pid", "42", "-d", "5", "-f", "out.folded", "-e", "wall",
                "-i", "5ms", "-t"));
        AgentOptions o = a.options();
        assertThat(a.pid()).isEqualTo(42);
        assertThat(o.durationNanos()).isEqualTo(5_000_000_000L);
        assertThat(o.file()).isEqualTo("out.folded");
        assertThat(o.event()).isEqualTo(ProfilingEvent.WALL);
        assertThat(o.intervalNanos()).isEqualTo(5_000_000L);
        assertThat(o.threads()).isTrue();
    }

    @Test
    void anOptionsFileIsReadAsTheAgentReadsIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("record.options"),
                "interval=2ms\nthreads   # one root per thread\n");
        AgentOptions o = RecordArguments.parse(List.of("--pid", "42", "-f", "out.html", "options=@" + file))
                .options();
        assertThat(o.intervalNanos()).isEqualTo(2_000_000L);
        assertThat(o.threads()).isTrue();
        assertThat(o.durationNanos()).as("the default duration still").isEqualTo(30_000_000_000L);
    }

    @Test
    void mixflamesLongFlagsAndOptionsKeepWorking() {
        AgentOptions o = RecordArguments.parse(List.of("--pid", "42", "--duration", "2s", "--file", "out.html",
                "--event", "cpu", "--interval", "1ms", "--threads", "include=*Server*,ann")).options();
        assertThat(o.durationNanos()).isEqualTo(2_000_000_000L);
        assertThat(o.file()).isEqualTo("out.html");
        assertThat(o.intervalNanos()).isEqualTo(1_000_000L);
        assertThat(o.threads()).isTrue();
        assertThat(o.style().annotate()).isTrue();
        assertThat(o.filter().include()).map(Object::toString).containsExactly("*Server*");
    }

    @Test
    void theDurationIsThirtySecondsUnlessAFlagOrTimeoutNamesOne() {
        assertThat(RecordArguments.parse(List.of("--pid", "1", "-f", "o.html")).options().durationNanos())
                .isEqualTo(30_000_000_000L);
        assertThat(RecordArguments.parse(List.of("--pid", "1", "-f", "o.html", "timeout=3")).options()
                .durationNanos()).isEqualTo(3_000_000_000L);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--pid 1|-f/--file OUT is missing",
        "-f o.html|--pid PID is missing",
        "--pid x -f o.html|--pid needs a process id, not 'x'",
        "--pid 1 -f o.html -x|unknown option '-x'",
        "--pid 1 -f|-f needs a value",
        "--pid 1 -f o.html -e cputime|unknown event 'cputime'",
        "--pid 1 -f o.html -e itimer|record --pid samples from outside the JVM and cannot take CPU timers",
        "--pid 1 -f o.html engine=timer|record --pid samples from outside the JVM and cannot take CPU timers",
        "--pid 1 -f o.html -e alloc|record --pid samples cpu or wall from outside the JVM and cannot profile alloc",
        "--pid 1 -f o.html lock=1ms|cannot profile alloc or lock; for those, load the agent",
        "--pid 1 -f o.html -d 5 timeout=6|option 'timeout' given twice",
        "--pid 1 -f o.html -i 5ms interval=6ms|option 'interval' given twice",
        "--pid 1 -f o.html a=1 b=2|OPTIONS are one comma-separated word",
        "--pid 1 -f o.otlp otlp=http://c:4318|record --pid writes one file and pushes nothing",
    })
    void badArgumentsAreOneLine(String args, String message) {
        assertThatThrownBy(() -> RecordArguments.parse(List.of(args.split(" "))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
