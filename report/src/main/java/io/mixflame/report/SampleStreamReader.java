package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.NativeModule;
import io.mixflame.profile.SampleSink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads what a {@link SampleStreamWriter} wrote, feeding stacks into a sink and notes to a consumer, until the
 * stream ends. Bounded: a line longer than the limit, more frames than the limit, an unknown frame id or a malformed
 * record ends the stream with an {@link IOException} that says which line, and nothing read before is lost.
 */
public final class SampleStreamReader {
    private static final int MAX_LINE = 1 << 20;

    private final int maxFrames;
    private final List<Frame> frames = new ArrayList<>();
    private Frame[] stack = new Frame[128];

    /** @param maxFrames how many frame ids may be defined before a reset */
    public SampleStreamReader(int maxFrames) {
        this.maxFrames = maxFrames;
    }

    /** Reads to the end of {@code in}, the modules the stream names left aside. */
    public void read(InputStream in, SampleSink sink, Consumer<String> notes) throws IOException {
        read(in, sink, notes, m -> { });
    }

    /** Reads to the end of {@code in}, telling {@code modules} of each module the stream names, in its order. */
    public void read(InputStream in, SampleSink sink, Consumer<String> notes, Consumer<NativeModule> modules)
            throws IOException {
        BoundedLineSplitter lines = new BoundedLineSplitter(MAX_LINE, (bytes, length, number) -> {
            try {
                apply(new String(bytes, 0, length, StandardCharsets.UTF_8), sink, notes, modules);
            } catch (RuntimeException e) {
                throw new IOException("sample stream line " + number + ": " + e.getMessage(), e);
            }
        });
        in.transferTo(lines);
        lines.finish();
    }

    private void apply(String line, SampleSink sink, Consumer<String> notes, Consumer<NativeModule> modules) {
        if (line.isEmpty()) {
            return;
        }
        switch (line.charAt(0)) {
            case 'F' -> {
                String[] parts = line.split(" ", 4);
                int id = Integer.parseInt(parts[1]);
                if (id != frames.size() || id >= maxFrames) {
                    throw new IllegalArgumentException("frame id " + id + " out of order or over the bound");
                }
                String[] named = parts[3].split("\t", -1);
                FrameType type = FrameType.valueOf(parts[2]);
                if (named.length == 1) {
                    frames.add(new Frame(unescape(parts[3]), type));
                } else if (named.length == 3 || named.length == 4) {
                    String module = named[1].isEmpty() ? null : unescape(named[1]);
                    int sampledLine = named.length == 4 ? Integer.parseInt(named[3]) : 0;
                    frames.add(new Frame(unescape(named[0]), type, module, Long.parseUnsignedLong(named[2], 16), sampledLine));
                } else {
                    throw new IllegalArgumentException("frame " + id + " has " + named.length + " fields");
                }
            }
            case 'S' -> {
                String[] parts = line.split(" ", 5);
                long samples = Long.parseLong(parts[1]);
                long weight = Long.parseLong(parts[2]);
                String[] ids = parts[3].split(",");
                if (stack.length < ids.length) {
                    stack = new Frame[ids.length];
                }
                for (int i = 0; i < ids.length; i++) {
                    int id = Integer.parseInt(ids[i]);
                    if (id < 0 || id >= frames.size()) {
                        throw new IllegalArgumentException("unknown frame id " + id);
                    }
                    stack[i] = frames.get(id);
                }
                if (parts.length == 5) {
                    sink.add(stack, ids.length, samples, weight, Long.parseLong(parts[4]));
                } else {
                    sink.add(stack, ids.length, samples, weight);
                }
            }
            case 'N' -> notes.accept(unescape(line.substring(2)));
            case 'R' -> frames.clear();
            case 'M' -> {
                String[] fields = line.substring(2).split("\t", -1);
                if (fields.length != 3 || fields[0].isEmpty()) {
                    throw new IllegalArgumentException("module record with " + fields.length + " fields");
                }
                modules.accept(new NativeModule(unescape(fields[0]), unescape(fields[1]), unescape(fields[2])));
            }
            default -> throw new IllegalArgumentException("unknown record '" + line.charAt(0) + "'");
        }
    }

    static String unescape(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                b.append(c);
            } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                b.append('\\');
                i++;
            } else if (i + 5 < text.length() && text.charAt(i + 1) == 'u') {
                b.append((char) Integer.parseInt(text.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                throw new IllegalArgumentException("bad escape in a name");
            }
        }
        return b.toString();
    }
}
