package io.mixflame.examples.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollapsedProfileTest {
    @TempDir
    Path dir;

    @Test
    void readsHeaderNotesAndStacksWithSpacesInFrames() throws Exception {
        Path file = dir.resolve("p.collapsed");
        Files.writeString(file, """
                # mixflame engine=perf event=cpu interval=10ms samples=7 0
                # note: 7 samples, 0 lost, 4.0 µs p50 / 12.5 µs p99 per sample 0
                start_thread;JavaCalls::call_helper(JavaValue*, JavaThread*);a/Cpu.alpha_[i] 5
                a/Cpu.beta_[j] 2
                """);
        CollapsedProfile p = CollapsedProfile.read(file);
        assertThat(p.engine()).isEqualTo("perf");
        assertThat(p.notes()).containsExactly("7 samples, 0 lost, 4.0 µs p50 / 12.5 µs p99 per sample");
        assertThat(p.total()).isEqualTo(7);
        assertThat(p.samples(CollapsedProfile.hasFrameEnding("Cpu.alpha"))).isEqualTo(5);
        assertThat(p.samples(CollapsedProfile.hasFrameContaining("call_helper"))).isEqualTo(5);
    }

    @Test
    void profileWithoutMixflameHeaderHasNoEngine() throws Exception {
        Path file = dir.resolve("ap.collapsed");
        Files.writeString(file, "a/Cpu.alpha_[j] 3\n");
        assertThat(CollapsedProfile.read(file).engine()).isNull();
    }
}
