package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.profile.ProfileAccumulator;
import io.mixflame.profile.SampleSink;
import io.mixflame.engine.wall.ThreadState;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class EngineSelectorTest {
    private static final SamplingSettings SETTINGS = new SamplingSettings(ProfilingEvent.CPU, 10_000_000L, false);

    /** An engine that starts or refuses as told. */
    private record FakeEngine(String name, String refusal) implements SamplingEngine {
        @Override
        public void start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException {
            if (refusal != null) {
                throw new EngineUnavailableException(refusal);
            }
        }

        @Override
        public void stop() {
        }
    }

    private static Supplier<SamplingEngine> engine(String name, String refusal) {
        return () -> new FakeEngine(name, refusal);
    }

    @Test
    void fallsBackToTheNextEngineWhenOneRefuses() throws Exception {
        EngineSelector selector = EngineSelector.of(List.of(engine("perf", "perf_event_open: EACCES"),
                engine("jfr", null)));
        assertThat(selector.start(SETTINGS, new ProfileAccumulator()).name()).isEqualTo("jfr");
    }

    @Test
    void whenEveryEngineRefusesTheReasonsAreListed() {
        EngineSelector selector = EngineSelector.of(List.of(engine("perf", "no perf"), engine("jfr", "no jfr")));
        assertThatThrownBy(() -> selector.start(SETTINGS, new ProfileAccumulator()))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessage("no engine could start: perf: no perf; jfr: no jfr");
    }

    @Test
    void forCpuTheDefaultChoiceTriesPerfThenTimersInTheThreadsThenPtraceThenJfr() {
        assertThat(EngineSelector.forChoice(EngineChoice.AUTO).names()).containsExactly("perf", "timer", "ptrace",
                "jfr");
        assertThat(EngineSelector.forChoice(EngineChoice.AUTO, ProfilingEvent.WALL, EnumSet.allOf(ThreadState.class))
                .names()).as("wall clock: the timers sample CPU time only").containsExactly("perf", "ptrace", "jfr");
        assertThat(EngineSelector.forChoice(EngineChoice.TIMER).names()).containsExactly("timer");
    }

    @Test
    void theDefaultChoiceStartsAnEngineInThisJvm() throws Exception {
        SamplingEngine engine = EngineSelector.forChoice(EngineChoice.AUTO).start(SETTINGS, new ProfileAccumulator());
        try {
            assertThat(engine.name()).isIn("jfr", "perf", "timer", "ptrace");
        } finally {
            engine.stop();
        }
    }
}
