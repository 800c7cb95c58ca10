package io.mixflame.examples.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.BuiltJars;
import io.mixflame.testsupport.CommandRun;
import io.mixflame.testsupport.WindowsToolchain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names from a PDB, under Wine: a MinGW program (linked with a PDB by binutils) waits, in a thread it named with
 * SetThreadDescription, in functions it does not export (one of them exported under a Microsoft C++ name instead); {@code stacks} names them from the PDB beside it through DbgHelp, and — the same program with its PDB
 * deleted — by the demangled export, or only by module and offset.
 */
class WindowsPdbNamesIT {
    private static final Pattern READY = Pattern.compile("ready (\\d+)");

    @TempDir
    Path dir;

    @Test
    void functionsTheProgramDoesNotExportAreNamedFromItsPdbAndOnlyFromIt() throws Exception {
        WindowsToolchain wine = WindowsToolchain.require();
        Path source = Path.of("target/test-classes/native/pdb-names/pdb_names.c").toAbsolutePath();
        Path exports = Path.of("target/test-classes/native/pdb-names/pdb_names.def").toAbsolutePath();
        Path exe = dir.resolve("pdb_names.exe");
        Path pdb = dir.resolve("pdb_names.pdb");
        wine.compile(dir, List.of("-O1", "-Wall", "-o", exe.toString(), source.toString(), exports.toString(),
                "-Wl,--pdb=" + pdb));
        assertThat(pdb).as("the PDB binutils linked").exists();

        String withPdb = stacksOf(wine, exe, "with-pdb");
        assertThat(withPdb).as("the worker named by its description (GetThreadDescription)")
                .containsPattern("(?m)^\"mf-described worker\" tid=\\d+ ");
        assertThat(withPdb).as("frames named from the PDB in\n%s", withPdb)
                .containsPattern("pdb_names\\.exe!mf_parked_in_global\\+0x[0-9a-f]+\n\\s+pdb_names\\.exe!mf_global_worker");

        Files.delete(pdb);
        String without = stacksOf(wine, exe, "without-pdb");
        assertThat(without).as("without the PDB: the export's Microsoft C++ name demangled, the rest by offset, in\n%s",
                without).doesNotContain("mf_parked_in_global").doesNotContain("mf_global_worker")
                .containsPattern("pdb_names\\.exe!mf_parked\\(void\\)\\+0x[0-9a-f]+\n\\s+pdb_names\\.exe\\+0x[0-9a-f]+");
    }

    private String stacksOf(WindowsToolchain wine, Path exe, String name) throws Exception {
        Process p = wine.startUnderWine(dir, name + "-program", List.of(exe.toString()));
        try {
            String pid = WindowsToolchain.awaitOutput(p, dir, name + "-program", READY, Duration.ofMinutes(1)).group(1);
            CommandRun stacks = wine.runUnderWine(dir, name, Duration.ofMinutes(2), List.of(wine.javaExe().toString(),
                    "-jar", wine.windowsPath(BuiltJars.agent()), "stacks", pid));
            assertThat(stacks.status()).as(stacks.stderr() + stacks.stdout()).isZero();
            return stacks.stdout().replace("\r\n", "\n");
        } finally {
            WindowsToolchain.end(p);
        }
    }
}
