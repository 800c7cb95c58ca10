package io.mixflame.image.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyHashTest {
    @Test
    void isStableAndHexadecimal() {
        String h = KeyHash.of("/usr/lib/libz.so.1\0123\0456".getBytes(StandardCharsets.UTF_8));
        assertEquals(h, KeyHash.of("/usr/lib/libz.so.1\0123\0456".getBytes(StandardCharsets.UTF_8)));
        assertTrue(h.matches("[0-9a-f]{32}"), h);
        assertEquals(KeyHash.of(new byte[] {1, 2, 3}), new KeyHash().update(new byte[] {1}).update(new byte[] {2, 3}).hex());
    }

    /** Keys that differ in one byte, in their length or only in zeros all hash apart. */
    @Test
    void nearKeysHashApart() {
        Set<String> seen = new HashSet<>();
        int made = 0;
        for (int length = 0; length < 40; length++) {
            for (int position = 0; position < length; position++) {
                for (int bit = 0; bit < 8; bit++) {
                    byte[] key = new byte[length];
                    key[position] ^= (byte) (1 << bit);
                    seen.add(KeyHash.of(key));
                    made++;
                }
            }
            seen.add(KeyHash.of(new byte[length]));
            made++;
        }
        assertEquals(made, seen.size());
        assertNotEquals(KeyHash.of(new byte[] {'a', 'b'}), KeyHash.of(new byte[] {'b', 'a'}));
    }
}
