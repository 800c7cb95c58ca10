package io.mixflame.agent;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON object whose values are all strings ({@code {"X-Key": "v", "X-Other": "w"}}), as Pyroscope's
 * {@code PYROSCOPE_HTTP_HEADERS} holds headers: parsed by hand, since the agent carries no JSON library for one
 * setting. At most {@value #MAX_TEXT} characters.
 */
final class JsonStringObject {
    static final int MAX_TEXT = 16 * 1024;

    private final String text;
    private int at;

    private JsonStringObject(String text) {
        this.text = text;
    }

    /**
     * The object's members, in order.
     *
     * @throws IllegalArgumentException with a one-line reason, never quoting a value
     */
    static Map<String, String> parse(String text) {
        if (text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("longer than " + MAX_TEXT + " characters");
        }
        JsonStringObject p = new JsonStringObject(text);
        Map<String, String> members = new LinkedHashMap<>();
        p.expect('{');
        if (!p.next('}')) {
            do {
                String key = p.string();
                p.expect(':');
                members.put(key, p.string());
            } while (p.next(','));
            p.expect('}');
        }
        p.space();
        if (p.at != text.length()) {
            throw new IllegalArgumentException("text after the object, at character " + p.at);
        }
        return members;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
    }

    private boolean next(char c) {
        space();
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!next(c)) {
            throw new IllegalArgumentException("not a JSON object of strings: '" + c + "' expected at character "
                    + at);
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                if (at >= text.length()) {
                    break;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (at + 4 > text.length()) {
                            throw new IllegalArgumentException("a \\u escape is cut short at character " + at);
                        }
                        try {
                            sb.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw new IllegalArgumentException("a bad \\u escape at character " + at);
                        }
                        at += 4;
                    }
                    default -> throw new IllegalArgumentException("a bad escape at character " + (at - 1));
                }
            } else {
                sb.append(c);
            }
        }
        throw new IllegalArgumentException("a string is not closed");
    }
}
