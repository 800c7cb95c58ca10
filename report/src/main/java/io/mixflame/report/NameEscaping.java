package io.mixflame.report;

/**
 * Escapes a name from the profiled process (a thread's, a method's, a symbol's) for a line-based output: nothing
 * in it may end the line or forge another record. Backslash and every control character are escaped
 * ({@code \\}, {@code \u000a}), and quotes too where the output encloses names in them; everything else is kept.
 */
public final class NameEscaping {
    private NameEscaping() {
    }

    /**
     * The name as it may stand in one line.
     *
     * @param quotes whether a double quote is escaped as well ({@code \"})
     */
    public static String escape(String text, boolean quotes) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || c == 0x7f;
            boolean escaped = c == '\\' || quotes && c == '"' || control;
            if (escaped && b == null) {
                b = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (b == null) {
                continue;
            }
            if (!escaped) {
                b.append(c);
            } else if (control) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append('\\').append(c);
            }
        }
        return b == null ? text : b.toString();
    }

    /**
     * The text with every control character (below U+0020, and U+007F) replaced by a space: for outputs whose fields
     * hold any other character as it is, such as the paths in pprof's mappings, where a backslash is a Windows path's
     * separator and must stay one.
     */
    public static String printable(String text) {
        char[] chars = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (chars == null) {
                    chars = text.toCharArray();
                }
                chars[i] = ' ';
            }
        }
        return chars == null ? text : new String(chars);
    }
}
