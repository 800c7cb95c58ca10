package io.mixflame.layers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * x86-64 stays behind the architecture seam ({@code io.mixflame.capture.CpuArchitecture}): no source outside a
 * package named for an architecture names x86-64's registers or layouts, or the JVM's names for it, so that another
 * architecture is a port that adds files rather than one that edits shared ones. Read from the sources, as
 * {@link PackageCyclesTest} reads them. {@link #AARCH64_PORT} lists what an aarch64 port adds, each file beside the
 * x86-64 counterpart that must exist, so that the list stays true as the code changes.
 */
class ArchitectureSeamTest {
    private static final Path JAVA = Path.of("src/main/java/io/mixflame");
    private static final Path NATIVE = Path.of("src/main/native");
    private static final Path SERVICES = Path.of("src/main/resources/META-INF/services");
    /** The seam's interfaces, each looked up by the services file of its name, and the implementations not listed. */
    private static final Map<String, List<String>> LOOKUPS = Map.of(
            "io.mixflame.capture.CpuArchitecture", List.of("io.mixflame.capture.UnsupportedArchitecture"),
            "io.mixflame.unwind.hotspot.HotSpotFrameRulesFactory", List.of());
    private static final List<Path> SOURCES = List.of(JAVA, Path.of("../agent/src/main/java/io/mixflame"));

    /** x86-64's register classes, its register constants, and the JVM's names of x86-64. */
    static final Pattern X86_64 = Pattern.compile(
            "\\bX64(?:Registers|UserRegs|PerfRegisters|Architecture|FrameRules|FrameRulesFactory)\\b|\\b(?:RIP|RSP|RBP)\\b|\"(?:amd64|x86_64)\"");

    /** Directories named for an architecture: where its knowledge belongs. */
    private static final List<String> ARCHITECTURE_PACKAGES = List.of("x64");

    /**
     * Packages that are x86-64 by nature, with why: Windows x64's CONTEXT and its unwind data are x86-64's own, and a
     * Windows port to another architecture adds packages of its own beside these.
     */
    private static final Map<String, String> X64_BY_NATURE = Map.of(
            "capture/windows", "SuspendThread/GetThreadContext fill a Windows x64 CONTEXT",
            "unwind/pe", "reads Windows x64 .pdata/.xdata and emulates x64 epilogs",
            "unwind/windows", "DbgHelp's StackWalk64 is driven with an x64 CONTEXT");

    /**
     * Shared files that still name x86-64, each with why it cannot use the seam: what an aarch64 port edits rather
     * than adds.
     */
    private static final Map<String, String> KNOWN_EDITS = Map.of(
            "image/dwarf/CfiParser.java", "the image layer lies below capture and cannot import the seam; the CFI "
                    + "columns it tracks (the frame pointer, the return address) belong to the module's machine",
            "image/dwarf/CfiProgram.java", "runs an FDE's program for CfiParser's columns (and CfiState starts the "
                    + "CFA at x86-64's stack pointer): the module's machine, as above",
            "boot/JnaSearchPath.java", "the agent's boot classes run before any profiler class loads: it presets "
                    + "JNA's library path with Debian's x86-64 directories, and elsewhere JNA finds the path itself");

    /**
     * What an aarch64 port adds, each beside its x86-64 counterpart (relative to {@code src/main}): the description
     * behind the seam, its layouts, HotSpot's frame rules and their factory, and the signal handler's architecture
     * header. The port also adds a line to each services file of {@link #LOOKUPS}.
     */
    static final Map<String, String> AARCH64_PORT = Map.of(
            "java/io/mixflame/capture/aarch64/Aarch64Architecture.java",
            "java/io/mixflame/capture/x64/X64Architecture.java",
            "java/io/mixflame/capture/aarch64/Aarch64Registers.java",
            "java/io/mixflame/capture/x64/X64Registers.java",
            "java/io/mixflame/capture/aarch64/Aarch64PerfRegisters.java",
            "java/io/mixflame/capture/x64/X64PerfRegisters.java",
            "java/io/mixflame/capture/aarch64/Aarch64UserPtRegs.java",
            "java/io/mixflame/capture/x64/X64UserRegs.java",
            "java/io/mixflame/capture/aarch64/package-info.java",
            "java/io/mixflame/capture/x64/package-info.java",
            "java/io/mixflame/unwind/hotspot/aarch64/Aarch64FrameRules.java",
            "java/io/mixflame/unwind/hotspot/x64/X64FrameRules.java",
            "java/io/mixflame/unwind/hotspot/aarch64/Aarch64FrameRulesFactory.java",
            "java/io/mixflame/unwind/hotspot/x64/X64FrameRulesFactory.java",
            "java/io/mixflame/unwind/hotspot/aarch64/package-info.java",
            "java/io/mixflame/unwind/hotspot/x64/package-info.java",
            "native/arch/aarch64/thread_timer_arch.h",
            "native/arch/amd64/thread_timer_arch.h");

    @Test
    void onlyArchitecturePackagesNameX8664() throws IOException {
        List<String> leaks = new ArrayList<>();
        List<String> knownSeen = new ArrayList<>();
        int files = 0;
        for (Path root : SOURCES) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path file : (Iterable<Path>) paths.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    files++;
                    String relative = root.relativize(file).toString().replace('\\', '/');
                    if (isArchitecturePackage(relative)) {
                        continue;
                    }
                    List<String> found = x86Names(Files.readString(file));
                    if (found.isEmpty()) {
                        continue;
                    }
                    if (KNOWN_EDITS.containsKey(relative)) {
                        knownSeen.add(relative);
                    } else {
                        leaks.add(relative + " names " + found);
                    }
                }
            }
        }
        assertThat(files).as("source files read").isGreaterThan(100);
        assertThat(leaks).as("shared files naming x86-64 (use io.mixflame.capture.HostRegisters or the "
                + "CpuArchitecture of HostArchitecture.current())").isEmpty();
        assertThat(knownSeen).as("known edits that no longer name x86-64 are to be struck off the list")
                .containsExactlyInAnyOrderElementsOf(KNOWN_EDITS.keySet());
    }

    @Test
    void theSharedSignalHandlerNamesNoX8664Register() throws IOException {
        String handler = Files.readString(NATIVE.resolve("thread_timer.c"));
        assertThat(Pattern.compile("\\bREG_[A-Z0-9]+\\b|%fs|\\bgregs\\b").matcher(handler).find())
                .as("thread_timer.c reads registers only through arch/<os.arch>/thread_timer_arch.h").isFalse();
    }

    @Test
    void everyArchitectureIsListedForTheLookups() throws IOException {
        for (Map.Entry<String, List<String>> lookup : LOOKUPS.entrySet()) {
            String simpleName = lookup.getKey().substring(lookup.getKey().lastIndexOf('.') + 1);
            List<String> listed = Files.readAllLines(SERVICES.resolve(lookup.getKey())).stream().map(String::trim)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
            List<String> implemented = new ArrayList<>();
            try (Stream<Path> paths = Files.walk(JAVA)) {
                for (Path file : (Iterable<Path>) paths.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    if (Files.readString(file).contains(" implements " + simpleName + " ")) {
                        String name = JAVA.getParent().getParent().relativize(file).toString().replace('\\', '/');
                        implemented.add(name.substring(0, name.length() - ".java".length()).replace('/', '.'));
                    }
                }
            }
            implemented.removeAll(lookup.getValue());
            assertThat(implemented).as("implementations of %s", simpleName).isNotEmpty();
            assertThat(listed).as("%s's services file", simpleName).containsExactlyInAnyOrderElementsOf(implemented);
        }
    }

    @Test
    void anAarch64PortsFilesHaveTheirX8664Counterparts() {
        Path main = JAVA.getParent().getParent().getParent();
        for (Map.Entry<String, String> file : AARCH64_PORT.entrySet()) {
            assertThat(main.resolve(file.getValue())).as("the x86-64 counterpart of %s", file.getKey()).isRegularFile();
            assertThat(main.resolve(file.getKey())).as("not yet written").doesNotExist();
        }
    }

    @Test
    void aStrayRegisterIsFound() {
        assertThat(x86Names("r.set(X64Registers.RSP, sp);")).contains("X64Registers", "RSP");
        assertThat(x86Names("if (\"amd64\".equals(arch))")).contains("\"amd64\"");
        assertThat(x86Names("return new X64FrameRules(vm);")).contains("X64FrameRules");
        assertThat(x86Names("// the caller's rbp, in rsp's frame\nr.set(HostRegisters.FP, fp);")).isEmpty();
    }

    private static boolean isArchitecturePackage(String relative) {
        for (String segment : relative.split("/")) {
            if (ARCHITECTURE_PACKAGES.contains(segment)) {
                return true;
            }
        }
        for (String pkg : X64_BY_NATURE.keySet()) {
            if (relative.startsWith(pkg + "/")) {
                return true;
            }
        }
        return false;
    }

    private static List<String> x86Names(String text) {
        List<String> found = new ArrayList<>();
        Matcher m = X86_64.matcher(text);
        while (m.find()) {
            found.add(m.group());
        }
        return found;
    }
}
