package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileOutputTest {

    @Test
    void anOtlpFileHoldsEveryEventOfThePeriodAndNamesTheService(@TempDir Path dir) throws Exception {
        AgentOptions options = AgentOptions.parse("event=cpu,alloc,lock,service=billing-api,tags=region=eu-west,file="
                + dir.resolve("p.otlp"));
        List<Profile> period = List.of(profile("cpu"), profile(ProfileInfo.ALLOC), profile(ProfileInfo.LOCK));

        List<ProfileOutput.Written> written = new ProfileOutput(options, dir).write(period);

        assertThat(written).singleElement().satisfies(w -> {
            assertThat(w.problem()).isNull();
            assertThat(w.path()).isEqualTo(dir.resolve("p.otlp"));
            assertThat(w.profiles()).hasSize(3);
        });
        String bytes = new String(Files.readAllBytes(dir.resolve("p.otlp")), StandardCharsets.ISO_8859_1);
        assertThat(bytes).contains("service.name", "billing-api", "region", "eu-west", "process.pid");
    }

    /**
     * A loop's file named with {@code %n{MAX}} is the ring of files the user asked for: the sequence wraps and the
     * file of the same number is replaced, where without it a loop never replaces a file.
     */
    @Test
    void aWrappingSequenceReplacesItsFilesInTurn(@TempDir Path dir) throws Exception {
        ProfileOutput output = new ProfileOutput(AgentOptions.parse("loop=1s,keep=10,summary,file="
                + dir.resolve("p-%n{2}.out")), dir);
        List<Path> paths = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            paths.add(output.write(List.of(profile("cpu"))).get(0).path());
        }
        assertThat(paths).containsExactly(dir.resolve("p-0.out"), dir.resolve("p-1.out"), dir.resolve("p-0.out"));
        assertThat(Files.readString(dir.resolve("p-0.out"), StandardCharsets.UTF_8))
                .as("an output word's format, whatever the name").startsWith("--- Execution profile ---");
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertThat(files).hasSize(2);
        }
    }

    private static Profile profile(String event) {
        return Profile.empty(new ProfileInfo("test", event, 10_000_000L, 1_700_000_000_000L, 1_000_000_000L,
                List.of()));
    }
}
