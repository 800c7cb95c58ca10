package io.mixflame.image.index;

/**
 * A 128-bit hash of a cache key's bytes, for names in the cache directory. Not cryptographic, and need not be: the
 * whole key is recorded in each index file and compared on every open, so two keys that hash alike cost a rebuild,
 * never a wrong index. Not {@code MessageDigest}: its first use initializes the JDK's security providers, some
 * seventy classes the service's JIT then compiled in its start-up.
 */
public final class KeyHash {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final long GOLDEN = 0x9e3779b97f4a7c15L;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final long[] lanes = {FNV_OFFSET, GOLDEN};
    private long length;

    /** Adds {@code bytes} to the hash. */
    public KeyHash update(byte[] bytes) {
        long h1 = lanes[0];
        long h2 = lanes[1];
        for (byte b : bytes) {
            int v = b & 0xff;
            h1 = (h1 ^ v) * FNV_PRIME;
            h2 = Long.rotateLeft(h2 ^ v, 23) * 0xff51afd7ed558ccdL;
        }
        lanes[0] = h1;
        lanes[1] = h2;
        length += bytes.length;
        return this;
    }

    /** The hash of everything added, as 32 lowercase hexadecimal digits. */
    public String hex() {
        long h1 = mix(lanes[0] ^ length);
        long h2 = mix(lanes[1] + h1);
        char[] out = new char[32];
        put(out, 0, h1);
        put(out, 16, h2);
        return new String(out);
    }

    /** The hash of {@code bytes} alone. */
    public static String of(byte[] bytes) {
        return new KeyHash().update(bytes).hex();
    }

    /** MurmurHash3's finalizer: every input bit reaches every output bit. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    private static void put(char[] out, int at, long value) {
        for (int i = 15; i >= 0; i--) {
            out[at + i] = HEX[(int) (value & 0xf)];
            value >>>= 4;
        }
    }
}
