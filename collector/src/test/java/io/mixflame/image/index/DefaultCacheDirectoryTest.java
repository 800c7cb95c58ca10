package io.mixflame.image.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DefaultCacheDirectoryTest {
    @Test
    void underXdgCacheHomeWhenSet() {
        assertThat(DefaultCacheDirectory.of(Map.of("XDG_CACHE_HOME", "/var/cache/u"), "Linux", "/home/u"))
                .contains(Path.of("/var/cache/u/mixflame/modules"));
    }

    @Test
    void underTheHomesCacheOtherwise() {
        assertThat(DefaultCacheDirectory.of(Map.of(), "Linux", "/home/u")).contains(Path.of("/home/u/.cache/mixflame/modules"));
        assertThat(DefaultCacheDirectory.of(Map.of("XDG_CACHE_HOME", "relative"), "Linux", "/home/u"))
                .as("a relative XDG_CACHE_HOME is ignored, as the spec says")
                .contains(Path.of("/home/u/.cache/mixflame/modules"));
    }

    /** (A path absolute on the machine the test runs on stands in for a Windows profile's AppData/Local.) */
    @Test
    void underLocalAppDataOnWindows() {
        assertThat(DefaultCacheDirectory.of(Map.of("LOCALAPPDATA", "/local", "XDG_CACHE_HOME", "/xdg"), "Windows 11", ""))
                .contains(Path.of("/local/mixflame/modules"));
    }

    @Test
    void noneWithoutAHome() {
        assertThat(DefaultCacheDirectory.of(Map.of(), "Linux", "")).isEmpty();
        assertThat(DefaultCacheDirectory.of(Map.of(), "Linux", "relative/home")).isEmpty();
    }
}
