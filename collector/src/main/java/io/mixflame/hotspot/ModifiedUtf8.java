package io.mixflame.hotspot;

/**
 * Decodes the JVM's modified UTF-8 (class and method names, and threads' names as JVM TI gives them): like UTF-8,
 * with NUL as two bytes and supplementary characters as surrogate pairs of three bytes each. Names read from the
 * JVM's memory are decoded strictly, because the bytes may be of a symbol that was freed and reused while it was
 * read: anything that is not well-formed, and any control character (which no compiler puts in a name, and garbage is
 * full of), makes the whole text invalid rather than replaced.
 */
public final class ModifiedUtf8 {
    private ModifiedUtf8() {
    }

    /** The text of {@code bytes}, or null when they are not a well-formed name. */
    static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length, true);
    }

    /**
     * The text of {@code length} bytes from {@code from}, control characters kept (a thread's name as the JVM's own
     * interfaces give it, which any Java string can be), or null when they are not well formed.
     */
    public static String decodeText(byte[] bytes, int from, int length) {
        return decode(bytes, from, length, false);
    }

    private static String decode(byte[] bytes, int from, int length, boolean name) {
        StringBuilder sb = new StringBuilder(length);
        int end = from + length;
        int i = from;
        while (i < end) {
            int b = bytes[i] & 0xff;
            char c;
            if (b < 0x80) {
                c = (char) b;
                i++;
            } else if ((b & 0xe0) == 0xc0 && i + 1 < end && continuation(bytes[i + 1])) {
                c = (char) (((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f));
                i += 2;
            } else if ((b & 0xf0) == 0xe0 && i + 2 < end && continuation(bytes[i + 1])
                    && continuation(bytes[i + 2])) {
                c = (char) (((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f));
                i += 3;
            } else {
                return null;
            }
            if (name && (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))) {
                return null;
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static boolean continuation(byte b) {
        return (b & 0xc0) == 0x80;
    }
}
