package io.mixflame.profile;

import java.util.Objects;

/**
 * One frame of a stack: a name, the kind of code it ran and, for native code, where it lies.
 *
 * <p>Java methods are named {@code pkg/Class.method} (the form async-profiler and flamegraph tools use);
 * native code by its symbol; markers, threads and labels in square brackets.
 *
 * <p>A frame also says where its code comes from, so that outputs need not parse names: a native frame its module's
 * file name and the function's offset in that module (the symbol's address as the module's image states it: ELF
 * virtual address, PE RVA), for pprof mappings and locations and {@code lib} prefixes; a Java frame its class's
 * source file, with the package's path ({@code java/lang/String.java}), and the method's first line, for pprof's
 * functions. Frames read from a format that does not keep them have neither (null and 0).
 *
 * <p>When the profile records line numbers ({@code lines}), a Java frame also carries the source line its sample was
 * at, and frames of one method at different lines are different frames, as in async-profiler's JFR files.
 *
 * @param name   the frame's display name, never empty
 * @param type   the kind of code
 * @param module native code: the module's file name (no directory); Java: the source file with its package's path;
 *               null when unknown or for other kinds
 * @param offset native code: the function's (or, without a symbol, the pc's) offset in the module; Java: the
 *               method's first source line; a thread's root frame: the thread's id; 0 when unknown
 * @param line   a Java frame's line at the sample, when the profile records lines; else 0
 */
public record Frame(String name, FrameType type, String module, long offset, int line) {

    /** The walk could not continue and did not know why. */
    public static final Frame UNKNOWN = new Frame("[unknown]", FrameType.MARKER);
    /** The stack was deeper than the engine records; frames nearer the root are missing. */
    public static final Frame TRUNCATED = new Frame("[truncated]", FrameType.MARKER);
    /**
     * Native frames the walk could not get through (code without unwind data, a frame pointer used for data), between
     * the frames it found from the sample and the Java frames it found again from where the thread left Java.
     */
    public static final Frame MISSING = new Frame("[missing frames]", FrameType.MARKER);
    /** A Java frame whose method's class was unloaded before the frame could be named. */
    public static final Frame UNLOADED_METHOD = new Frame("[unloaded method]", FrameType.MARKER);
    /** A Java frame whose method could not be read. */
    public static final Frame UNKNOWN_JAVA = new Frame("[unknown Java frame]", FrameType.MARKER);
    /** Time the profiler's own threads ran, counted but not walked (their stacks would always be its own code). */
    public static final Frame PROFILER = new Frame("[mixflame profiler]", FrameType.MARKER);
    /**
     * Samples the kernel took but could not keep: its buffer was full while the profiler was held off the CPU. Counted
     * so that the other stacks' shares stay true; which threads they were is not known.
     */
    public static final Frame LOST = new Frame("[lost samples]", FrameType.MARKER);
    /** Samples of a thread that the profiler took but could not walk in time: counted, without their stack. */
    public static final Frame DROPPED = new Frame("[dropped]", FrameType.MARKER);
    /** The profile reached its bound on distinct stacks or frames; samples counted here have no stack. */
    public static final Frame OVERFLOW = new Frame("[overflow]", FrameType.MARKER);

    /** The most characters of a label's key. */
    public static final int MAX_LABEL_KEY = 64;
    /**
     * The most characters of a label's value in its frame: a longer value keeps its first 127 characters (126 where
     * the 127th would split a surrogate pair) followed by {@code …}.
     */
    public static final int MAX_LABEL_VALUE = 128;
    private static final char CUT = '\u2026';

    /** A frame whose place in memory is unknown or irrelevant (Java, markers, threads, frames read from text). */
    public Frame(String name, FrameType type) {
        this(name, type, null, 0, 0);
    }

    /** A frame that records no sampled line. */
    public Frame(String name, FrameType type, String module, long offset) {
        this(name, type, module, offset, 0);
    }

    public Frame {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("frame name is empty");
        }
        if (line < 0) {
            throw new IllegalArgumentException("negative line " + line);
        }
        // Checked here, not only in label(), so that a frame read from a stream cannot be a label without a key.
        if (type == FrameType.LABEL && labelSeparator(name) < 0) {
            throw new IllegalArgumentException("a label frame's name is [key=value] with a valid key");
        }
    }

    // Written out rather than generated: the generated record methods go through method handles, which costs in
    // the profiler's hot path, where every sample's frames are looked up by value. The offset is not part of a
    // frame's identity: for a named function it follows from the name and module, and without a name it is in it.
    @Override
    public boolean equals(Object o) {
        return o instanceof Frame other && type == other.type && line == other.line && name.equals(other.name)
                && Objects.equals(module, other.module);
    }

    @Override
    public int hashCode() {
        return ((name.hashCode() * 31 + type.ordinal()) * 31 + (module == null ? 0 : module.hashCode())) * 31 + line;
    }

    /** This frame at another sampled line (0: none); the same object when the line is already that. */
    public Frame atLine(int newLine) {
        return newLine == line ? this : new Frame(name, type, module, offset, newLine);
    }

    /** A native frame of {@code module}, at {@code offset} in it. */
    public static Frame nativeCode(String name, String module, long offset) {
        return new Frame(name, FrameType.NATIVE, module, offset);
    }

    /**
     * A Java frame of a method of {@code internalClassName} ({@code java/lang/String}) whose class was compiled from
     * {@code sourceFile} ({@code String.java}, or null when unknown), starting at {@code firstLine} (0 when unknown).
     */
    public static Frame javaMethod(String internalClassName, String methodName, FrameType type, String sourceFile,
                                   int firstLine) {
        String source = null;
        if (sourceFile != null && !sourceFile.isEmpty()) {
            int slash = internalClassName.lastIndexOf('/');
            source = slash < 0 ? sourceFile : internalClassName.substring(0, slash + 1) + sourceFile;
        }
        return new Frame(internalClassName + '.' + methodName, type, source, source == null ? 0 : Math.max(0, firstLine));
    }

    /** A Java frame named from a binary class name ({@code java.lang.String}) and a method name. */
    public static Frame java(String className, String methodName, FrameType type) {
        return new Frame(className.replace('.', '/') + '.' + methodName, type);
    }

    /**
     * The root frame of one thread, named in the form async-profiler's tools recognise, keeping the thread's id as
     * its offset ({@link #threadId}, {@link #threadName}) so that outputs with fields for them need not parse it.
     */
    public static Frame thread(String threadName, long osThreadId) {
        return new Frame("[" + threadName + " tid=" + osThreadId + "]", FrameType.THREAD, null, osThreadId);
    }

    /**
     * A thread's root frame's thread name, when the frame was made with its id ({@link #thread}, or read from
     * {@code [name tid=N]}); null for other frames and threads without an id. Not for the per-sample path.
     */
    public String threadName() {
        if (type != FrameType.THREAD) {
            return null;
        }
        String suffix = " tid=" + offset + "]";
        if (name.length() > suffix.length() && name.charAt(0) == '[' && name.endsWith(suffix)) {
            return name.substring(1, name.length() - suffix.length());
        }
        return name.equals("[tid=" + offset + "]") ? "" : null;
    }

    /** A thread's root frame's thread id; 0 for other frames or when unknown. */
    public long threadId() {
        return type == FrameType.THREAD ? offset : 0;
    }

    /**
     * The frame of a label in force on the sampled thread, named {@code [key=value]}.
     *
     * <p>The value comes from the application and is made safe to show: cut to {@link #MAX_LABEL_VALUE} characters,
     * and every control character (newline, carriage return and tab included) replaced by a space. Characters that
     * mean something in one output only ({@code ;} in collapsed stacks, {@code <} in a page) are left to that
     * output's own escaping, as in any other frame name.
     *
     * @param key   a label key ({@link #isLabelKey}); the caller checks keys it takes from users
     * @param value the label's value, any text (may be empty)
     * @throws IllegalArgumentException when the key is not a label key
     */
    public static Frame label(String key, String value) {
        if (key == null || !isLabelKey(key)) {
            throw new IllegalArgumentException("a label key is a letter or '_', then up to "
                    + (MAX_LABEL_KEY - 1) + " letters, digits, '_', '.' or '-'");
        }
        return new Frame("[" + key + "=" + shownLabelValue(Objects.requireNonNull(value, "value")) + "]",
                FrameType.LABEL);
    }

    /**
     * Whether {@code key} may be a label's key: {@code [A-Za-z_][A-Za-z0-9_.-]{0,63}}, a name that a filter, a pprof
     * tag query and a frame name all take as it is, and that never holds the {@code =} ending it in a frame's name.
     */
    public static boolean isLabelKey(String key) {
        return key != null && isLabelKey(key, 0, key.length());
    }

    /** For a {@link FrameType#LABEL} frame, its key: the name's part before the first {@code =}, without the {@code [}. */
    public String labelKey() {
        return name.substring(1, labelSeparatorOfThis());
    }

    /** For a {@link FrameType#LABEL} frame, its value: the name's part after the first {@code =}, without the {@code ]}. */
    public String labelValue() {
        return name.substring(labelSeparatorOfThis() + 1, name.length() - 1);
    }

    private int labelSeparatorOfThis() {
        if (type != FrameType.LABEL) {
            throw new IllegalStateException("a " + type + " frame has no label key or value");
        }
        return name.indexOf('=');
    }

    /** The index of the {@code =} of a name {@code [key=value]} with a valid key, else -1. */
    private static int labelSeparator(String name) {
        int eq = name.indexOf('=');
        return name.length() >= 4 && name.charAt(0) == '[' && name.charAt(name.length() - 1) == ']' && eq > 0
                && eq < name.length() - 1 && isLabelKey(name, 1, eq) ? eq : -1;
    }

    private static boolean isLabelKey(String s, int from, int to) {
        if (to <= from || to - from > MAX_LABEL_KEY || !keyStart(s.charAt(from))) {
            return false;
        }
        for (int i = from + 1; i < to; i++) {
            char c = s.charAt(i);
            if (!keyStart(c) && !(c >= '0' && c <= '9') && c != '.' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean keyStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    private static String shownLabelValue(String value) {
        char[] chars;
        if (value.length() > MAX_LABEL_VALUE) {
            int keep = MAX_LABEL_VALUE - 1;
            // Half a surrogate pair is no character: every output would show it as a replacement character.
            if (Character.isHighSurrogate(value.charAt(keep - 1))) {
                keep--;
            }
            chars = new char[keep + 1];
            value.getChars(0, keep, chars, 0);
            chars[keep] = CUT;
        } else {
            chars = null;
        }
        for (int i = 0, n = chars == null ? value.length() : chars.length; i < n; i++) {
            char c = chars == null ? value.charAt(i) : chars[i];
            if (Character.isISOControl(c)) {
                if (chars == null) {
                    chars = value.toCharArray();
                }
                chars[i] = ' ';
            }
        }
        return chars == null ? value : new String(chars);
    }
}
