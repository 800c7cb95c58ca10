package io.mixflame.hotspot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Names are decoded strictly: the bytes of a freed symbol must not turn into a name. */
class ModifiedUtf8Test {

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    @Test
    void wellFormedNamesDecode() {
        assertThat(ModifiedUtf8.decode("java/lang/invoke/LambdaForm$DMH+0x00007f0c".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("java/lang/invoke/LambdaForm$DMH+0x00007f0c");
        assertThat(ModifiedUtf8.decode("Größe€".getBytes(StandardCharsets.UTF_8))).isEqualTo("Größe€");
        // A supplementary character is a surrogate pair, each half in three bytes.
        assertThat(ModifiedUtf8.decode(bytes(0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80))).isEqualTo("\ud83d\ude00");
    }

    @Test
    void aNulByteOrAControlCharacterIsNotAName() {
        assertThat(ModifiedUtf8.decode(bytes('a', 0, 'b'))).isNull();
        assertThat(ModifiedUtf8.decode(bytes('a', 0x07))).isNull();
        assertThat(ModifiedUtf8.decode(bytes('a', 0x7f))).isNull();
        // Modified UTF-8's own NUL, and a C1 control in two bytes.
        assertThat(ModifiedUtf8.decode(bytes(0xc0, 0x80))).isNull();
        assertThat(ModifiedUtf8.decode(bytes(0xc2, 0x85))).isNull();
    }

    @Test
    void textKeepsControlCharactersAndNulButStillRefusesMalformedBytes() {
        byte[] in = bytes('x', 'a', 0xc0, 0x80, 'b', 0x07, 'y');
        assertThat(ModifiedUtf8.decodeText(in, 1, 5)).as("a window of the bytes, NUL and BEL kept")
                .isEqualTo("a\u0000b\u0007");
        assertThat(ModifiedUtf8.decodeText(bytes('a', 0xc3), 0, 2)).as("truncated").isNull();
        assertThat(ModifiedUtf8.decodeText(bytes(0xe2, 0x82, 0xac, 'z'), 0, 2)).as("cut by the window").isNull();
    }

    @Test
    void malformedSequencesAreNotReplacedButRefused() {
        assertThat(ModifiedUtf8.decode(bytes('a', 0xc3))).as("truncated").isNull();
        assertThat(ModifiedUtf8.decode(bytes(0xe2, 0x82))).as("truncated three-byte").isNull();
        assertThat(ModifiedUtf8.decode(bytes(0xc3, 'a'))).as("bad continuation").isNull();
        assertThat(ModifiedUtf8.decode(bytes(0x80))).as("lone continuation").isNull();
        assertThat(ModifiedUtf8.decode(bytes(0xf0, 0x9f, 0x98, 0x80))).as("four-byte form").isNull();
        assertThat(ModifiedUtf8.decode(bytes(0xff))).isNull();
    }
}
