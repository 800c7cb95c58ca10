package io.mixflame.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of {@link WindowsToolchain} that need no Wine: the script's output and path conversion. */
class WindowsToolchainTest {
    @TempDir
    Path root;

    /** JUnit's clean-up warns about a link leaving the temporary directory; this one it need not see. */
    @AfterEach
    void removeDriveZ() throws Exception {
        Files.deleteIfExists(root.resolve("prefix/dosdevices/z:"));
    }

    private WindowsToolchain withPrefix() throws Exception {
        Path prefix = root.resolve("prefix");
        Files.createDirectories(prefix.resolve("dosdevices"));
        Files.createDirectories(prefix.resolve("drive_c/windows/system32"));
        Files.writeString(prefix.resolve("drive_c/windows/system32/ntdll.dll"), "MZ");
        Files.createSymbolicLink(prefix.resolve("dosdevices/c:"), Path.of("../drive_c"));
        Files.createSymbolicLink(prefix.resolve("dosdevices/z:"), Path.of("/"));
        return WindowsToolchain.parse(List.of("wine64=/usr/lib/wine/wine64", "wineprefix=" + prefix,
                "mingw-gcc=/usr/bin/x86_64-w64-mingw32-gcc", "java-exe=/x/jre/bin/java.exe"));
    }

    @Test
    void readsTheScriptsKeyValueLines() throws Exception {
        WindowsToolchain t = withPrefix();

        assertThat(t.wine64()).isEqualTo(Path.of("/usr/lib/wine/wine64"));
        assertThat(t.mingwGcc()).isEqualTo(Path.of("/usr/bin/x86_64-w64-mingw32-gcc"));
        assertThat(t.javaExe()).isEqualTo(Path.of("/x/jre/bin/java.exe"));
        assertThat(t.environment()).containsEntry("WINEPREFIX", root.resolve("prefix").toString())
                .containsEntry("WINEDEBUG", "-all");
    }

    @Test
    void aMissingKeyIsTheScriptsBugAndFails() {
        assertThatThrownBy(() -> WindowsToolchain.parse(List.of("wine64=/w", "wineprefix=/p")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("mingw-gcc");
    }

    @Test
    void linuxPathsAreOnDriveZ() throws Exception {
        assertThat(withPrefix().windowsPath(Path.of("/tmp/a b/../c/x.exe"))).isEqualTo("Z:\\tmp\\c\\x.exe");
    }

    @Test
    void windowsPathsGoThroughThePrefixsDrivesIgnoringCase() throws Exception {
        WindowsToolchain t = withPrefix();

        Path ntdll = t.linuxPath("C:\\Windows\\SYSTEM32\\ntdll.dll");
        Path fromZ = t.linuxPath(t.windowsPath(root.resolve("prefix/drive_c/windows/system32/ntdll.dll")));

        assertThat(ntdll).isRegularFile();
        assertThat(ntdll.toRealPath()).isEqualTo(root.resolve("prefix/drive_c/windows/system32/ntdll.dll").toRealPath());
        assertThat(fromZ.toRealPath()).isEqualTo(ntdll.toRealPath());
        assertThatThrownBy(() -> t.linuxPath("relative\\x.dll")).isInstanceOf(IllegalArgumentException.class);
    }
}
