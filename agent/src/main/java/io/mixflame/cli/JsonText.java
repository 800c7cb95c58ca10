package io.mixflame.cli;

/**
 * Builds JSON text. Hand-written rather than a JSON library: the tool emits a handful of flat records, and a
 * dependency for that would grow the profiler's jar for every user of the agent.
 */
final class JsonText {
    private final StringBuilder sb = new StringBuilder();
    private boolean needComma;

    JsonText beginObject() {
        comma();
        sb.append('{');
        needComma = false;
        return this;
    }

    JsonText endObject() {
        sb.append('}');
        needComma = true;
        return this;
    }

    JsonText beginArray(String name) {
        key(name);
        sb.append('[');
        needComma = false;
        return this;
    }

    JsonText endArray() {
        sb.append(']');
        needComma = true;
        return this;
    }

    JsonText field(String name, String value) {
        key(name);
        if (value == null) {
            sb.append("null");
        } else {
            string(value);
        }
        needComma = true;
        return this;
    }

    JsonText field(String name, long value) {
        key(name);
        sb.append(value);
        needComma = true;
        return this;
    }

    JsonText field(String name, boolean value) {
        key(name);
        sb.append(value);
        needComma = true;
        return this;
    }

    private void key(String name) {
        comma();
        string(name);
        sb.append(':');
    }

    private void comma() {
        if (needComma) {
            sb.append(',');
        }
    }

    private void string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
