package io.mixflame.capture.proc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BlockedThreadStateTest {
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
