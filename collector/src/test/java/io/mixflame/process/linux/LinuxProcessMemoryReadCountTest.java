package io.mixflame.process.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.process.MemoryReadException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class LinuxProcessMemoryReadCountTest {

    @Test
    void eachSystemCallCountsOnceAndALongReadOncePerChunk() throws Exception {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self(); Memory block = new Memory(100 * 1024)) {
            block.clear();
            long at = Pointer.nativeValue(block);
            assertThat(memory.systemReads()).isZero();
            memory.readLong(at);
            memory.readInt(at + 8);
            assertThat(memory.systemReads()).isEqualTo(2);
            byte[] into = new byte[100 * 1024];
            assertThat(memory.read(at, into, 0, into.length)).isEqualTo(into.length);
            // 100 KiB is two chunks of at most 64 KiB: two calls.
            assertThat(memory.systemReads()).isEqualTo(4);
        }
    }

    @Test
    void aFailedReadCountsToo() {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self()) {
            assertThatThrownBy(() -> memory.readLong(8)).isInstanceOf(MemoryReadException.class);
            assertThat(memory.systemReads()).isEqualTo(1);
        }
    }

    @Test
    void aReadIntoABufferOutsideTheHeapCopiesWhatIsThereChunkByChunk() {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self(); Memory block = new Memory(100 * 1024)) {
            for (int i = 0; i < 100 * 1024; i++) {
                block.setByte(i, (byte) (i * 31 + 7));
            }
            java.nio.ByteBuffer into = java.nio.ByteBuffer.allocateDirect(100 * 1024 + 16);
            assertThat(memory.read(Pointer.nativeValue(block), into, 16, 100 * 1024)).isEqualTo(100 * 1024);
            assertThat(memory.systemReads()).isEqualTo(2);
            for (int i = 0; i < 100 * 1024; i += 997) {
                assertThat(into.get(16 + i)).isEqualTo((byte) (i * 31 + 7));
            }
            assertThat(into.position()).isZero();
            assertThat(memory.read(8, into, 0, 64)).as("unmapped").isZero();
        }
    }

    @Test
    void scatteredWordsAreReadAFewHundredToACallAndUnreadableOnesAreMarkedAndPassed() {
        try (LinuxProcessMemory memory = LinuxProcessMemory.self(); Memory block = new Memory(8 * 2000)) {
            int count = 1200;
            long[] addresses = new long[count];
            for (int i = 0; i < count; i++) {
                // Every other word, backwards: scattered, not one range.
                addresses[i] = Pointer.nativeValue(block) + 8L * (1999 - 2 * (i % 1000));
                block.setLong(8L * (1999 - 2 * (i % 1000)), i % 1000 * 7919L - 3);
            }
            addresses[300] = 0; // a null pointer followed: not asked of the kernel
            addresses[700] = 8; // unmapped
            long[] words = new long[count];
            boolean[] read = new boolean[count];
            memory.readWords(addresses, count, words, read);
            for (int i = 0; i < count; i++) {
                if (i == 300 || i == 700) {
                    assertThat(read[i]).as("the null and the unmapped word").isFalse();
                } else {
                    assertThat(read[i]).as("word %d", i).isTrue();
                    assertThat(words[i]).as("word %d", i).isEqualTo(i % 1000 * 7919L - 3);
                }
            }
            // 300 up to the null one, then 399 up to the unmapped one, then the 499 after it: three calls for 1 200
            // words (the null one asked would end a fourth).
            assertThat(memory.systemReads()).isEqualTo(3);
        }
    }
}
