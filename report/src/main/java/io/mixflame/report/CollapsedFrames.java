package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.Profile;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text form of one frame in collapsed stacks, both ways. Written in a {@link FrameStyle}: by default plain
 * names as async-profiler writes them, with {@code ann} Java kinds carry async-profiler's suffixes ({@code _[j]}
 * JIT compiled, {@code _[i]} inlined, {@code _[0]} interpreted, {@code _[1]} C1 compiled); kernel frames always
 * end in {@code _[k]}; native code, stubs, threads, markers and labels carry none. Read with or without suffixes.
 *
 * <p>A label is written as its frame's name, {@code [key=value]}, sanitized like any name. It is read back as a label
 * only at a stack's root end ({@link #parseAtRoot}): first, or right after the thread frame, or after another label.
 */
public final class CollapsedFrames {

    /** A thread's root frame as {@link Frame#thread} names it: group 1 the name (absent when empty), group 2 the tid. */
    static final Pattern THREAD_FRAME = Pattern.compile("\\[(?:(.*) )?tid=(\\d{1,18})]", Pattern.DOTALL);

    private CollapsedFrames() {
    }

    /** The suffix async-profiler appends to a frame of this kind when annotating ({@code ann}), or "" for none. */
    public static String suffix(FrameType type) {
        return switch (type) {
            case JIT_COMPILED -> "_[j]";
            // async-profiler marks the class of an allocation or a lock as it marks inlined frames.
            case INLINED, CLASS -> "_[i]";
            case INTERPRETED -> "_[0]";
            case C1_COMPILED -> "_[1]";
            case KERNEL -> "_[k]";
            case NATIVE, STUB, THREAD, MARKER, LABEL -> "";
        };
    }

    /**
     * A name that keeps one stack on one line and carries no non-printable character: {@code ;} (the frame
     * separator) becomes {@code :}, every control character (below U+0020, and U+007F) becomes a space, so
     * newline and carriage return do too.
     */
    public static String sanitize(String name) {
        int first = firstToReplace(name);
        if (first < 0) {
            return name;
        }
        char[] chars = name.toCharArray();
        for (int i = first; i < chars.length; i++) {
            char c = chars[i];
            if (c == ';') {
                chars[i] = ':';
            } else if (isControl(c)) {
                chars[i] = ' ';
            }
        }
        return new String(chars);
    }

    // One pass without allocating: nearly every name needs nothing replaced.
    private static int firstToReplace(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ';' || isControl(c)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isControl(char c) {
        return c < 0x20 || c == 0x7f;
    }

    /** The frame as it appears in a collapsed line: its name in {@code style}, sanitized, and its type suffix. */
    public static String format(Frame frame, FrameStyle style) {
        return spelled(frame, style) + style.suffix(frame.type());
    }

    /** The frame's name in {@code style}, sanitized, without a suffix: what a flame graph shows. */
    static String spelled(Frame frame, FrameStyle style) {
        return sanitize(style.name(frame));
    }

    /**
     * Every frame of the profile's table spelled once, indexed by frame id: a profile's stacks share their frames,
     * and spelling each occurrence (cutting C++ parameter lists, replacing control characters) repeated the same
     * work for every stack a frame is on — inside the profiled service when it writes at exit or on a dump.
     *
     * @param suffixed whether each name ends in its type suffix ({@link #format}) or not ({@link #spelled})
     */
    static String[] spellAll(Profile profile, FrameStyle style, boolean suffixed) {
        List<Frame> frames = profile.frames();
        String[] names = new String[frames.size()];
        for (int i = 0; i < names.length; i++) {
            Frame f = frames.get(i);
            names[i] = suffixed ? format(f, style) : spelled(f, style);
        }
        return names;
    }

    /**
     * The frame a collapsed token stands for. A suffix gives the kind and is stripped; without one,
     * {@code [name tid=N]} is a thread, other {@code [...]} a marker, a name that looks like Java (by the
     * heuristic async-profiler's converter uses) JIT compiled, anything else native.
     *
     * @param token one non-empty frame of a collapsed line
     */
    public static Frame parse(String token) {
        FrameType suffixed = typeOfSuffix(token);
        if (suffixed != null && token.length() > 4) {
            return withLine(token.substring(0, token.length() - 4), suffixed);
        }
        return withLine(token, guessType(token));
    }

    /** A frame of {@code name}; a Java frame's {@code :line} ending ({@code lines} style) becomes its line. */
    private static Frame withLine(String name, FrameType type) {
        if (type == FrameType.THREAD) {
            return threadFrame(name);
        }
        if (!type.isJava()) {
            return new Frame(name, type);
        }
        int colon = name.lastIndexOf(':');
        // Java names hold no ':'; at most 9 digits, so the line fits an int.
        if (colon <= 0 || colon == name.length() - 1 || name.length() - colon > 10) {
            return new Frame(name, type);
        }
        for (int i = colon + 1; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return new Frame(name, type);
            }
        }
        int line = Integer.parseInt(name, colon + 1, name.length(), 10);
        return new Frame(name.substring(0, colon), type, null, 0, line);
    }

    /**
     * The frame a collapsed token at a stack's root end stands for: a label {@code [key=value]} with a valid key (the
     * writer gives labels no suffix, so a value ending like one stays the label's), else what {@link #parse} finds.
     *
     * @param first whether the token is the stack's first, where a thread frame {@code [name tid=N]} is taken for a
     *              thread even when its name holds a {@code =} ({@code [a=b tid=1]})
     */
    /**
     * A thread's root frame as written ({@code [name tid=N]}), with the id it holds as its offset; one that is not in
     * that form keeps its name alone.
     */
    static Frame threadFrame(String written) {
        Matcher m = THREAD_FRAME.matcher(written);
        if (!m.matches()) {
            return new Frame(written, FrameType.THREAD);
        }
        return new Frame(written, FrameType.THREAD, null, Long.parseLong(m.group(2)));
    }

    static Frame parseAtRoot(String token, boolean first) {
        if (first && THREAD_FRAME.matcher(token).matches()) {
            return threadFrame(token);
        }
        Frame label = LabelFrames.fromName(token);
        return label != null ? label : parse(token);
    }

    private static FrameType typeOfSuffix(String token) {
        if (!token.endsWith("]") || token.length() < 4 || !token.startsWith("_[", token.length() - 4)) {
            return null;
        }
        return switch (token.charAt(token.length() - 2)) {
            case 'j' -> FrameType.JIT_COMPILED;
            case 'i' -> FrameType.INLINED;
            case '0' -> FrameType.INTERPRETED;
            case '1' -> FrameType.C1_COMPILED;
            case 'k' -> FrameType.KERNEL;
            default -> null;
        };
    }

    private static FrameType guessType(String name) {
        if (name.startsWith("[") && name.endsWith("]")) {
            return THREAD_FRAME.matcher(name).matches() ? FrameType.THREAD : FrameType.MARKER;
        }
        // C++ and Objective-C symbols can contain '/' or '.', so they are ruled out first.
        if (name.contains("::") || name.startsWith("-[") || name.startsWith("+[")) {
            return FrameType.NATIVE;
        }
        if (name.indexOf('/') > 0 && name.charAt(0) != '['
                || name.indexOf('.') > 0 && Character.isUpperCase(name.charAt(0))) {
            return FrameType.JIT_COMPILED;
        }
        return FrameType.NATIVE;
    }
}
