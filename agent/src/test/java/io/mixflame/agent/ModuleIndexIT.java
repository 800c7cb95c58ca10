package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.TestJdks;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs one after the other with one {@code cachedir=}: the first writes libjvm's module index, the second maps it
 * instead of reading libjvm's symbols again, and names libjvm's frames from it as the first named them from the file.
 */
class ModuleIndexIT {
    private static final Pattern LIBJVM_FRAME = Pattern.compile("libjvm\\.so`([^;]+)");

    @TempDir
    Path dir;

    // The index is of a library file, whichever JDK it comes with: one JDK.
    @Test
    void aSecondJvmUsesTheIndexTheFirstWrote() throws Exception {
        Path jdk = TestJdks.newest();
        Path cache = dir.resolve("cache");
        String libjvm = jdk.toRealPath().resolve("lib/server/libjvm.so").toString();

        String first = run(jdk, cache, "first");
        assertThat(first).contains("symbols of " + libjvm + " written to module index");
        try (Stream<Path> files = Files.list(cache)) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".mfidx"))
                    .noneMatch(n -> n.endsWith(".tmp"));
        }

        String second = run(jdk, cache, "second");
        assertThat(second).contains("symbols of " + libjvm + " from module index")
                .doesNotContain("symbols of " + libjvm + " written");
        // JNA's native library is kept there too, copied by the first JVM and loaded from there by both.
        String jnaCopy = "JNA's library loaded from " + cache.resolve("lib" + JnaDispatchCache.NAME_PREFIX);
        assertThat(first).contains("JNA's library copied to").contains(jnaCopy);
        assertThat(second).doesNotContain("JNA's library copied to").contains(jnaCopy);

        Set<String> firstNames = libjvmFunctions(dir.resolve("first.collapsed"));
        Set<String> secondNames = libjvmFunctions(dir.resolve("second.collapsed"));
        // A function found by its unwind data alone ([libjvm.so+0x...]) means a symbol was missing. A bare
        // [libjvm.so] is a pc that neither symbols nor unwind data place in any function (seen once on CI, in the
        // first JVM, which read the symbols from the file): not the index's to name.
        assertThat(secondNames).isNotEmpty().noneMatch(n -> n.contains("+0x"));
        assertThat(firstNames).noneMatch(n -> n.contains("+0x"));
        assertThat(secondNames).as("functions named from the index").filteredOn(n -> !n.startsWith("[")).isNotEmpty();
        // Sampled runs see different functions; many are the same, and spelled the same.
        Set<String> both = new TreeSet<>(firstNames);
        both.retainAll(secondNames);
        assertThat(both).isNotEmpty();
    }

    /** Runs SpinApp for two seconds under the agent, sampling every thread at 1 ms; returns its stderr. */
    private String run(Path jdk, Path cache, String name) throws Exception {
        Path out = dir.resolve(name + ".collapsed");
        try (ChildJvm app = ChildJvm.start(jdk, dir, List.of(
                "-javaagent:" + BuiltJars.agent() + "=start,interval=1ms,threads,lib,engine=perf,log=debug,cachedir="
                        + cache + ",file=" + out,
                "-cp", AttachIT.TEST_CLASSES, "io.mixflame.testapp.SpinApp", "2"))) {
            assertThat(app.awaitExit(Duration.ofSeconds(60))).as(app.stderr()).isZero();
            return app.stderr();
        }
    }

    private static Set<String> libjvmFunctions(Path collapsed) throws Exception {
        Set<String> names = new TreeSet<>();
        Matcher m = LIBJVM_FRAME.matcher(Files.readString(collapsed, StandardCharsets.UTF_8));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
