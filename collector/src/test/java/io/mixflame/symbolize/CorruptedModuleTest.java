package io.mixflame.symbolize;

import io.mixflame.image.SymbolTable;
import io.mixflame.image.linux.ElfModuleImage;
import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.dwarf.CallFrameInfo;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Truncated and corrupted copies of real libraries: the module gets an error and no symbols or unwind information,
 * or whatever still parses; no exception escapes and nothing loops.
 */
class CorruptedModuleTest {
    private static final Path LIBC = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
    private static final Path LIBJVM = Path.of(System.getProperty("java.home"), "lib/server/libjvm.so");

    static Stream<Arguments> damage() {
        return Stream.of(LIBC, LIBJVM).flatMap(lib -> Stream.of(
                Arguments.of(lib, "truncated to 63 bytes", 63, 0, 0L),
                Arguments.of(lib, "truncated to 4 KiB", 4096, 0, 0L),
                Arguments.of(lib, "truncated to half", -2, 0, 0L),
                Arguments.of(lib, "last 100 bytes cut", -100, 0, 0L),
                Arguments.of(lib, "200 random bytes in the headers", 0, 200, 1L),
                Arguments.of(lib, "2000 random bytes anywhere", 0, 2000, 2L),
                Arguments.of(lib, "5000 random bytes anywhere", 0, 5000, 3L)));
    }

    @ParameterizedTest(name = "{1} of {0}")
    @MethodSource("damage")
    void damagedCopiesCostTheModuleNotTheProfiler(Path library, String what, int truncate, int flips, long seed)
            throws Exception {
        byte[] bytes = Files.readAllBytes(library);
        if (truncate > 0) {
            bytes = java.util.Arrays.copyOf(bytes, truncate);
        } else if (truncate == -2) {
            bytes = java.util.Arrays.copyOf(bytes, bytes.length / 2);
        } else if (truncate < 0) {
            bytes = java.util.Arrays.copyOf(bytes, bytes.length + truncate);
        }
        Random random = new Random(seed);
        int region = seed == 1L ? 4096 : bytes.length;
        for (int i = 0; i < flips; i++) {
            bytes[random.nextInt(region)] = (byte) random.nextInt(256);
        }
        byte[] damaged = bytes;
        ElfModuleImage module = new ElfModuleImage(library + " (" + what + ")", () -> ElfFile.parse(ByteBuffer.wrap(damaged)));

        SymbolTable symbols = module.symbols();
        CallFrameInfo cfi = module.cfi();
        for (long address = 0; address < 0x400000; address += 0x1001) {
            symbols.indexOf(address);
            cfi.find(address);
        }
        if (truncate == 63) {
            assertThat(module.elf()).isEmpty();
            assertThat(symbols.size()).isZero();
            assertThat(cfi.ranges()).isZero();
        }
        if (truncate == 0 && flips == 0) {
            assertThat(symbols.size()).isPositive();
        }
        assertThat(symbols.size()).isLessThanOrEqualTo(intact(library).symbols().size() + damaged.length / 24);
    }

    private static ElfModuleImage intact(Path library) {
        return new ElfModuleImage(library.toString(), () -> ElfFile.open(library));
    }
}
