package io.mixflame.examples;

import io.mixflame.testsupport.TestJdks;
import static io.mixflame.examples.ThreadStacks.anyFrame;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.examples.harness.ProfilerFiles;
import io.mixflame.image.linux.ElfModuleImage;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JNI library, RocksDB from Maven Central (17 MB of C++ with zstd, functions without symbols, loaded from a
 * temporary copy with a random name, threads of its own), under the agent at 1 ms beside async-profiler in the same
 * test: the Java caller kept below every call into the library, no more [unknown] than async-profiler's, each
 * function without a symbol under one name, the library under the same name in two runs, RocksDB's threads by name.
 */
class RocksJniIT {
    private static final Path ROCKSDB = Path.of("target/workloads/rocksdbjni.jar").toAbsolutePath();
    private static final String WORKLOAD = "io/mixflame/examples/rocks/RocksWorkload.";
    /**
     * Main-thread samples in the library to judge the callers on: at a true rate of 99.9% the expected misses are 2
     * of 2000, and chance makes them more than the 10 that 99.5% allows less than once in 10 000 runs.
     */
    private static final long NEEDED = 2000;
    /** A frame named by its module and an offset: code without a symbol. */
    private static final Pattern ADDRESSED = Pattern.compile("^\\[(.+)\\+0x([0-9a-f]+)\\]$");

    @TempDir
    Path dir;

    // The library's threads and frames are its own, not the JVM's: one JDK.
    @Test
    void rocksDbUnderTheAgent() throws Exception {
        Path jdk = TestJdks.newest();
        assertThat(ROCKSDB).as("copied by the build (mvn package)").exists();
        ProfilePeriods periods = new ProfilePeriods("main-thread samples in RocksDB", NEEDED, Duration.ofMinutes(3),
                1000);
        List<Path> first = periods.collect(Duration.ofSeconds(8), RocksJniIT::mainInLibrary,
                (i, length) -> profile(jdk, "mixflame-" + i, length, mixflame(i))).profiles();
        Path second = profile(jdk, "mixflame-again", Duration.ofSeconds(6), mixflame(99));
        Path asyncProfiler = profile(jdk, "async-profiler", Duration.ofSeconds(8), asyncProfiler());

        ThreadStacks main = ThreadStacks.of("main", first);
        ThreadStacks calls = main.only(anyFrame(RocksJniIT::inLibrary));
        assertThat(calls.share(anyFrame(f -> f.startsWith(WORKLOAD))))
                .as("samples of the main thread in RocksDB below a method of the workload, of\n%s",
                        calls.top(20, s -> s.frames().stream().noneMatch(f -> f.startsWith(WORKLOAD))))
                .isGreaterThanOrEqualTo(0.995);

        CollapsedShares ours = CollapsedShares.read(first);
        CollapsedShares theirs = CollapsedShares.read(asyncProfiler);
        double ourUnknown = (double) ours.samplesWithFrame("[unknown]") / ours.totalSamples();
        // async-profiler marks a stack it could not finish by [unknown], [unknown_Java] or [break_…]: all count.
        double theirUnknown = (double) (theirs.samplesWithFrameStarting("[unknown")
                + theirs.samplesWithFrameStarting("[break_")) / theirs.totalSamples();
        System.out.printf("RocksJniIT %s: Java caller on %.3f%% of %d main-thread library samples; [unknown] %.3f%% of %d"
                + " samples (async-profiler %.3f%% of %d)%n", jdk.getFileName(),
                100 * calls.share(anyFrame(f -> f.startsWith(WORKLOAD))), calls.samples(), 100 * ourUnknown,
                ours.totalSamples(), 100 * theirUnknown, theirs.totalSamples());
        assertThat(theirs.totalSamples()).as("async-profiler's samples").isGreaterThan(1000);
        assertThat(ourUnknown).as("[unknown] share, async-profiler's %.3f%% of %d samples", 100 * theirUnknown,
                theirs.totalSamples()).isLessThanOrEqualTo(theirUnknown + 0.005);

        Set<String> modules = libraryModules(first);
        Set<String> again = libraryModules(List.of(second));
        assertThat(modules).as("the library's module name").hasSize(1);
        assertThat(again).as("the library's module name in a second run").isEqualTo(modules);
        assertThat(modules.iterator().next()).as("no random part left of the temporary copy's name")
                .doesNotContainPattern("[0-9]{8,}");
        eachAddressedFrameStartsAFunctionWithoutSymbol(first, modules.iterator().next());

        for (String thread : List.of("rocksdb:low", "rocksdb:high")) {
            ThreadStacks own = ThreadStacks.of(thread, first);
            assertThat(own.count(anyFrame(f -> f.startsWith("rocksdb::")))).as("samples of %s in RocksDB", thread)
                    .isPositive();
        }
    }

    private static boolean inLibrary(String frame) {
        return frame.startsWith("rocksdb::") || frame.startsWith("Java_org_rocksdb_") || frame.contains("rocksdbjni");
    }

    private static long mainInLibrary(Path profile) throws IOException {
        return ThreadStacks.of("main", List.of(profile)).count(anyFrame(RocksJniIT::inLibrary));
    }

    /** The modules that frames named by an address in the RocksDB library carry. */
    private static Set<String> libraryModules(List<Path> profiles) throws IOException {
        Set<String> modules = new TreeSet<>();
        for (String frame : frames(profiles)) {
            Matcher m = ADDRESSED.matcher(frame);
            if (m.matches() && m.group(1).contains("rocksdbjni")) {
                modules.add(m.group(1));
            }
        }
        return modules;
    }

    /**
     * Every {@code [module+0xN]} frame of the library is named by the start of a function of its unwind data that no
     * symbol names: two addresses of one function are one frame, and a function is never named both ways.
     */
    private void eachAddressedFrameStartsAFunctionWithoutSymbol(List<Path> profiles, String module) throws IOException {
        Path library = dir.resolve("librocksdbjni-linux64.so");
        try (ZipFile jar = new ZipFile(ROCKSDB.toFile()); InputStream in = jar.getInputStream(
                jar.getEntry("librocksdbjni-linux64.so"))) {
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
        }
        ElfModuleImage image = new ElfModuleImage(library.toString(), () -> ElfFile.open(library));
        List<String> wrong = new ArrayList<>();
        int named = 0;
        for (String frame : frames(profiles)) {
            Matcher m = ADDRESSED.matcher(frame);
            if (!m.matches() || !m.group(1).equals(module)) {
                continue;
            }
            named++;
            long offset = Long.parseLong(m.group(2), 16);
            if (image.unwindData().functionStart(offset) != offset || image.symbols().indexOf(offset) >= 0) {
                wrong.add(frame);
            }
        }
        assertThat(named).as("frames of the library named by an address (functions without a symbol)").isPositive();
        assertThat(wrong).as("frames not at the start of a function without a symbol").isEmpty();
    }

    private static Set<String> frames(List<Path> profiles) throws IOException {
        Set<String> frames = new TreeSet<>();
        for (Path p : profiles) {
            for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
                if (!line.startsWith("#") && line.lastIndexOf(' ') > 0) {
                    frames.addAll(List.of(line.substring(0, line.lastIndexOf(' ')).split(";")));
                }
            }
        }
        return frames;
    }

    private interface Profiler {
        List<String> args(Path out);
    }

    private static Profiler mixflame(int index) {
        return out -> List.of("-javaagent:" + BuiltJars.agent() + "=start,interval=1ms,threads,file=" + out);
    }

    private Profiler asyncProfiler() throws IOException {
        Path library = ProfilerFiles.find(ProfilerFiles.projectRoot(), dir).asyncProfilerLibrary();
        return out -> List.of("-agentpath:" + library + "=start,event=cpu,interval=1ms,threads,collapsed,file=" + out);
    }

    private Path profile(Path jdk, String name, Duration length, Profiler profiler) throws Exception {
        Path run = Files.createDirectories(dir.resolve(name));
        Path out = run.resolve(name + ".collapsed");
        List<String> args = new ArrayList<>(profiler.args(out));
        // RocksDB extracts its library to the temporary directory: one per run, removed with the test's.
        args.add("-Djava.io.tmpdir=" + run);
        // The examples jar's manifest puts target/workloads/rocksdbjni.jar on the class path.
        args.addAll(List.of("-jar", BuiltJars.examples().toString(), "rocks", "--seconds",
                Long.toString(length.toSeconds())));
        try (ChildJvm app = ChildJvm.start(jdk, run, args)) {
            assertThat(app.awaitExit(length.plus(Duration.ofMinutes(2)))).as(app.stderr()).isZero();
        }
        assertThat(out).as("%s's profile", name).exists();
        return out;
    }
}
