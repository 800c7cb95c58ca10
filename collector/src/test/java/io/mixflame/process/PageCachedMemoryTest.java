package io.mixflame.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mixflame.testsupport.FakeProcessMemory;
import org.junit.jupiter.api.Test;

/** Reads served from kept pages give what the process holds, and ask the system once per page. */
class PageCachedMemoryTest {
    private static final long BASE = 0x7f00_0000_0000L;

    @Test
    void wordsAndStringsOfOnePageCostOneRead() throws MemoryReadException {
        FakeProcessMemory process = new FakeProcessMemory().map(BASE, 4096).writeLong(BASE + 8, 0x1122334455667788L)
                .writeInt(BASE + 100, 0xcafebabe).writeCString(BASE + 200, "gHotSpotVMStructs");
        PageCachedMemory cached = new PageCachedMemory(process, 4);
        long before = process.systemReads();
        assertThat(cached.readLong(BASE + 8)).isEqualTo(0x1122334455667788L);
        assertThat(cached.readInt(BASE + 100)).isEqualTo(0xcafebabe);
        byte[] name = new byte[17];
        assertThat(cached.read(BASE + 200, name, 0, 17)).isEqualTo(17);
        assertThat(new String(name, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("gHotSpotVMStructs");
        assertThat(process.systemReads() - before).isEqualTo(1);
    }

    @Test
    void aReadAcrossPagesJoinsThemAndAWordAcrossThemToo() throws MemoryReadException {
        FakeProcessMemory process = new FakeProcessMemory().map(BASE, 8192).writeLong(BASE + 4092, -2L);
        PageCachedMemory cached = new PageCachedMemory(process, 4);
        assertThat(cached.readLong(BASE + 4092)).isEqualTo(-2L);
    }

    @Test
    void anUnreadablePageFailsAsTheProcessWould() {
        FakeProcessMemory process = new FakeProcessMemory().map(BASE, 4096).writeLong(BASE + 4088, 7);
        PageCachedMemory cached = new PageCachedMemory(process, 4);
        byte[] target = new byte[16];
        assertThat(cached.read(BASE + 4088, target, 0, 16)).as("up to the unmapped page").isEqualTo(8);
        assertThatThrownBy(() -> cached.readLong(BASE + 4092)).isInstanceOf(MemoryReadException.class);
        assertThatThrownBy(() -> cached.readLong(0)).isInstanceOf(MemoryReadException.class);
    }

    @Test
    void keepsNoMoreThanItsPagesTheOldestGivenUpFirst() throws MemoryReadException {
        FakeProcessMemory process = new FakeProcessMemory().map(BASE, 3 * 4096);
        PageCachedMemory cached = new PageCachedMemory(process, 2);
        cached.readLong(BASE);
        cached.readLong(BASE + 4096);
        cached.readLong(BASE + 8192);
        long before = process.systemReads();
        cached.readLong(BASE + 8192);
        cached.readLong(BASE + 4096);
        assertThat(process.systemReads() - before).as("the last two pages kept").isZero();
        cached.readLong(BASE);
        assertThat(process.systemReads() - before).as("the first given up").isEqualTo(1);
    }
}
