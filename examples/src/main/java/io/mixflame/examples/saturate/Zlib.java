package io.mixflame.examples.saturate;

import com.sun.jna.Native;
import java.nio.ByteBuffer;

/**
 * zlib's {@code crc32} called through JNI (JNA's direct mapping). {@link java.util.zip.CRC32} would not do: HotSpot
 * computes it with an intrinsic, so no native call and no zlib frame would be left to profile.
 */
final class Zlib {
    static {
        Native.register(Zlib.class, "z");
    }

    private Zlib() {
    }

    /**
     * {@code uLong crc32(uLong crc, const Bytef *buf, uInt len)}: {@code crc} updated with the first {@code len}
     * bytes of the direct buffer {@code buf}. {@code uLong} is 64 bits wide on the 64-bit Linux the harness runs on.
     */
    static native long crc32(long crc, ByteBuffer buf, int len);
}
