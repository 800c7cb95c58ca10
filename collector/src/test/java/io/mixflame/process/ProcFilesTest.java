package io.mixflame.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcFilesTest {
    @Test
    void mapsLinesParse() {
        MemoryMapping m = MemoryMaps.parse(
                "7f2c1a000000-7f2c1a021000 r-xp 00028000 08:01 1234       /usr/lib/x86_64-linux-gnu/libc.so.6");
        assertThat(m).isEqualTo(new MemoryMapping(0x7f2c1a000000L, 0x7f2c1a021000L, true, false, true, 0x28000, 1234,
                "/usr/lib/x86_64-linux-gnu/libc.so.6"));
        assertThat(m.isFile()).isTrue();
        assertThat(MemoryMaps.parse("7ffd1000-7ffd3000 r-xp 00000000 00:00 0  [vdso]").isFile()).isFalse();
        assertThat(MemoryMaps.parse("garbage")).isNull();
    }

    @Test
    void ownMapsHaveExecutableLibc() throws Exception {
        List<MemoryMapping> maps = MemoryMaps.read(ProcessHandle.current().pid());
        assertThat(maps).anyMatch(m -> m.executable() && m.path().endsWith("/libc.so.6"));
    }

    @Test
    void syscallLinesParse() {
        BlockedThreadState s = BlockedThreadState.parse(
                "230 0x0 0x0 0x7fb386e19e30 0x0 0x0 0x7ffcd7f8abe7 0x7fb386e19df0 0x7fb386ef2545").orElseThrow();
        assertThat(s.syscall()).isEqualTo(230);
        assertThat(s.arguments()).containsExactly(0, 0, 0x7fb386e19e30L, 0, 0, 0x7ffcd7f8abe7L);
        assertThat(s.sp()).isEqualTo(0x7fb386e19df0L);
        assertThat(s.pc()).isEqualTo(0x7fb386ef2545L);
        assertThat(BlockedThreadState.parse("-1 0x7ffc00 0x4005d0").orElseThrow().syscall()).isEqualTo(-1);
        assertThat(BlockedThreadState.parse("running")).isEmpty();
    }
}
