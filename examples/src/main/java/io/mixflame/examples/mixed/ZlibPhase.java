package io.mixflame.examples.mixed;

import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Compresses buffers with the JDK's zlib ({@link Deflater}), inflates them back ({@link Inflater}) and checks them
 * with {@link CRC32}: Java frames down to a {@code native} method, then zlib's C code. (HotSpot computes CRC32 with
 * an intrinsic, so its time may show as a JIT stub rather than as zlib.)
 */
final class ZlibPhase {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final byte[] input = compressibleText(BUFFER_BYTES);
    private final byte[] compressed = new byte[BUFFER_BYTES + 1024];
    private final byte[] restored = new byte[BUFFER_BYTES];
    private final Deflater deflater = new Deflater();
    private final Inflater inflater = new Inflater();
    private long buffers;
    private long compressedBytes;

    /** Runs until the deadline; returns what it did. */
    String run(long deadlineNanos) throws DataFormatException {
        long expectedCrc = crc(input, input.length);
        while (System.nanoTime() < deadlineNanos) {
            deflater.reset();
            deflater.setInput(input);
            deflater.finish();
            int size = deflater.deflate(compressed);
            inflater.reset();
            inflater.setInput(compressed, 0, size);
            int back = inflater.inflate(restored);
            if (back != input.length || crc(restored, back) != expectedCrc) {
                throw new IllegalStateException("zlib round trip changed the data");
            }
            buffers++;
            compressedBytes += size;
        }
        deflater.end();
        inflater.end();
        return String.format("%d buffers of %d KiB deflated to %.0f%% and inflated back, each checked with CRC32",
                buffers, BUFFER_BYTES / 1024, buffers == 0 ? 0.0 : 100.0 * compressedBytes / (buffers * BUFFER_BYTES));
    }

    private static long crc(byte[] data, int length) {
        CRC32 crc = new CRC32();
        crc.update(data, 0, length);
        return crc.getValue();
    }

    /** Words from a small vocabulary in random order: compresses to about a third, as text does. */
    private static byte[] compressibleText(int size) {
        String[] words = {"profile", "sample", "frame", "stack", "native", "java", "thread", "interval", "flame",
            "graph", "zlib", "inflate", "deflate", "callback", "qsort"};
        Random random = new Random(42);
        byte[] out = new byte[size];
        int i = 0;
        while (i < size) {
            byte[] w = (words[random.nextInt(words.length)] + (random.nextInt(10) == 0 ? ".\n" : " ")).getBytes();
            for (int k = 0; k < w.length && i < size; k++) {
                out[i++] = w[k];
            }
        }
        return out;
    }
}
