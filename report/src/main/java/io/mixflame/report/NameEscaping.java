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
}
