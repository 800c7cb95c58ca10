package io.mixflame.hotspot;

/** Decodes the JVM's modified UTF-8 (class and method names): like UTF-8, with NUL as two bytes and surrogates in pairs. */
final class ModifiedUtf8 {
    private ModifiedUtf8() {
    }

    static String decode(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length);
        int i = 0;
        while (i < bytes.length) {
            int b = bytes[i] & 0xff;
            if (b < 0x80) {
                sb.append((char) b);
                i++;
            } else if ((b & 0xe0) == 0xc0 && i + 1 < bytes.length) {
                sb.append((char) (((b & 0x1f) << 6) | (bytes[i + 1] & 0x3f)));
                i += 2;
            } else if ((b & 0xf0) == 0xe0 && i + 2 < bytes.length) {
                sb.append((char) (((b & 0x0f) << 12) | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f)));
                i += 3;
            } else {
                sb.append('\ufffd');
                i++;
            }
        }
        return sb.toString();
    }
}
