package io.mixflame.process.linux;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.process.MemoryMapping;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcMapsTest {
    @Test
    void mapsLinesParse() {
        MemoryMapping m = ProcMaps.parse(
                "7f2c1a000000-7f2c1a021000 r-xp 00028000 08:01 1234       /usr/lib/x86_64-linux-gnu/libc.so.6");
        assertThat(m).isEqualTo(new MemoryMapping(0x7f2c1a000000L, 0x7f2c1a021000L, true, false, true, 0x28000, 1234,
                "/usr/lib/x86_64-linux-gnu/libc.so.6"));
        assertThat(m.isFile()).isTrue();
        assertThat(ProcMaps.parse("7ffd1000-7ffd3000 r-xp 00000000 00:00 0  [vdso]").isFile()).isFalse();
        assertThat(ProcMaps.parse("garbage")).isNull();
    }

    @Test
    void ownMapsHaveExecutableLibc() throws Exception {
        List<MemoryMapping> maps = ProcMaps.read(ProcessHandle.current().pid());
        assertThat(maps).anyMatch(m -> m.executable() && m.path().endsWith("/libc.so.6"));
    }
}
