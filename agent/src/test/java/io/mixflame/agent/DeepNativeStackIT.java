package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import io.mixflame.testsupport.TestJdks;
import org.junit.jupiter.api.Test;

/**
 * A JNI library whose native stack is deeper than perf's default copy of 16 KiB (about 40 KiB, laid out differently
 * at every call): once the thread's copy has grown, its samples are whole from the leaf to the Java caller, with no
 * {@code [unknown]} where the copy ended and no {@code [missing frames]} skipped to the thread's last Java frame.
 * With the copy left at 16 KiB, about 4% of them are.
 */
class DeepNativeStackIT {
    private static final String APP = "io/mixflame/testapp/DeepNativeStackApp";

    @TempDir
    Path dir;

    // The stack in the copy is the library's, not the JVM's: each engine once, on a JDK of its own.
    @Test
    void cpuSamplesReachTheJavaCallerOnceTheCopyHasGrown() throws Exception {
        assertWholeOnceGrown(TestJdks.running(), "interval=1ms");
    }

    /** The wall-clock engine's running threads get their stacks from perf samples too, and grow them the same way. */
    @Test
    void wallSamplesReachTheJavaCallerOnceTheCopyHasGrown() throws Exception {
        assertWholeOnceGrown(TestJdks.newest(), "event=wall,interval=2ms");
    }

    private void assertWholeOnceGrown(Path jdk, String sampling) throws Exception {
        Path source = Path.of("target/test-classes/native/deepstack/deepstack.c").toAbsolutePath();
        Path library = dir.resolve("libdeepstack.so");
        StacksIT.run("gcc", "-O2", "-shared", "-fPIC", "-I" + jdk.resolve("include"),
                "-I" + jdk.resolve("include/linux"), "-o", library.toString(), source.toString());
        Path profiles = PeriodProfiles.record(jdk, dir, sampling, "io.mixflame.testapp.DeepNativeStackApp",
                library.toString(), "8");
        // The first periods hold the app's start and the samples taken with the default copy before the first walk
        // asked for a larger one. That first walk waits for the walker's warm-up (symbol tables), and the samples
        // meanwhile wait in the ring buffers and the pool and reach the profile with it: seconds late on a loaded
        // machine. So half the run is left out; the rest is judged.
        List<String> inLibrary = PeriodProfiles.linesAfter(profiles, 4,
                l -> l.startsWith("[main tid=") && l.contains(";deep_"));
        long all = PeriodProfiles.samples(inLibrary);
        long whole = PeriodProfiles.samples(inLibrary.stream()
                .filter(l -> l.contains(";" + APP + ".main;" + APP + ".callNative;"))
                .filter(l -> !l.contains("[unknown]") && !l.contains("[missing frames]")).toList());
        // At 1 or 2 ms for about 4 s of a thread that is nearly always in the library: thousands of samples, hundreds
        // at least on a busy machine.
        assertThat(all).as("samples in the library").isGreaterThan(500);
        assertThat((double) whole / all).as("samples whole down to the Java caller, of\n%s",
                String.join("\n", inLibrary.subList(0, Math.min(40, inLibrary.size())))).isGreaterThanOrEqualTo(0.99);
    }
}
