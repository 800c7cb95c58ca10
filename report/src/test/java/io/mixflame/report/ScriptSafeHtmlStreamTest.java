package io.mixflame.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScriptSafeHtmlStreamTest {

    private static final String PAGE = "<script>\nconst cpool = [\n'all',\n' a</script>\u2028\u2029€\u00e2',\n'!<'\n];\n"
            + "f(1)\n</script>\n";
    private static final String SAFE = "<script>\nconst cpool = [\n'all',\n' a\\u003c/script>\\u2028\\u2029€\u00e2',\n"
            + "'!\\u003c'\n];\nf(1)\n</script>\n";

    private static String filter(String page, boolean byteByByte) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ScriptSafeHtmlStream out = new ScriptSafeHtmlStream(sink)) {
            byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
            if (byteByByte) {
                for (byte b : bytes) {
                    out.write(b);
                }
            } else {
                out.write(bytes);
            }
        }
        return sink.toString(StandardCharsets.UTF_8);
    }

    @Test
    void escapesOnlyInsideTheCpoolLines() throws IOException {
        assertThat(filter(PAGE, false)).isEqualTo(SAFE);
    }

    @Test
    void escapesCharactersSplitAcrossWrites() throws IOException {
        assertThat(filter(PAGE, true)).isEqualTo(SAFE);
    }

    @Test
    void anUnfinishedCharacterAtTheEndIsWrittenOnClose() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        ScriptSafeHtmlStream out = new ScriptSafeHtmlStream(sink);
        out.write("const cpool = [\n'".getBytes(StandardCharsets.US_ASCII));
        out.write(new byte[] {(byte) 0xe2, (byte) 0x80});
        out.close();

        assertThat(sink.toByteArray()).endsWith((byte) '\'', (byte) 0xe2, (byte) 0x80);
    }

    @Test
    void unescapeUndoesExactlyTheseEscapes() {
        assertThat(ScriptSafeHtmlStream.unescape("' a\\u003c/script>\\u2028\\u2029'")).isEqualTo("' a</script>\u2028\u2029'");
        // An escaped backslash followed by text that looks like an escape is a literal backslash.
        assertThat(ScriptSafeHtmlStream.unescape("'\\\\u003c \\\\\\u003c \\' \\u0041 \\'")).isEqualTo(
                "'\\\\u003c \\\\< \\' \\u0041 \\'");
    }
}
