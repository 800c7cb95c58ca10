package io.mixflame.image.pe;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.testsupport.PeImageBuilder;
import io.mixflame.testsupport.PeImageBuilder.Export;
import io.mixflame.testsupport.PeImageBuilder.Function;
import io.mixflame.testsupport.UnwindInfoBytes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Corrupted images (fixed seed) are read or rejected with {@link PeFormatException}, never anything else. */
class PeFileFuzzTest {
    private static final int ROUNDS = 3000;

    @Test
    void corruptedImagesFailOnlyWithPeFormatException() {
        byte[] good = image();
        readEverything(good); // the uncorrupted image reads without error
        Random random = new Random(15);
        int rejected = 0;
        for (int round = 0; round < ROUNDS; round++) {
            byte[] bytes = good.clone();
            int flips = 1 + random.nextInt(8);
            for (int i = 0; i < flips; i++) {
                // Mostly the headers and tables, where a flip changes structure rather than content.
                int at = random.nextBoolean() ? random.nextInt(Math.min(0x400, bytes.length))
                        : random.nextInt(bytes.length);
                bytes[at] = (byte) (random.nextInt(4) == 0 ? 0xff : random.nextInt(256));
            }
            if (random.nextInt(10) == 0) {
                bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
            }
            try {
                readEverything(bytes);
            } catch (PeFormatException e) {
                assertThat(e.getMessage()).isNotBlank();
                rejected++;
            }
        }
        assertThat(rejected).isPositive();
    }

    private static void readEverything(byte[] bytes) {
        PeFile pe = PeFile.parse(ByteBuffer.wrap(bytes));
        PeExports exports = PeExports.read(pe);
        exports.rvaOf("gHotSpotVMStructs");
        exports.nearestAtOrBelow(0x1100);
        PeUnwindTable table = PeUnwindTable.read(pe);
        for (long rva = 0x1000; rva < 0x1100; rva += 0x10) {
            table.find(rva).ifPresent(table::unwindInfo);
        }
    }

    private static byte[] image() {
        PeImageBuilder b = new PeImageBuilder();
        b.section(".text", new byte[0x200]);
        b.exports("jvm.dll", List.of(Export.of("gHotSpotVMStructs", 0x1100), Export.of("JVM_A", 0x1010),
                Export.forwarded("F", "K.G")));
        long parent = b.xdataRva(0);
        b.unwindTables(List.of(
                new Function(0x1000, 0x1040, new UnwindInfoBytes().prolog(9).saveNonvol(9, 3, 0x20)
                        .allocSmall(4, 0x28).push(1, 5).toByteArray()),
                new Function(0x1080, 0x10c0, new UnwindInfoBytes().push(1, 6).chainTo(0x1000, 0x1040, parent)
                        .toByteArray())));
        return b.build();
    }
}
