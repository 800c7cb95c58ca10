package io.mixflame.image;

import java.util.Locale;

/**
 * The name a module goes by in profiles: the same in every run of a service, so that two profiles of it match.
 *
 * <p>JNI libraries are often loaded from a temporary copy whose name has a random part — {@code File.createTempFile}'s
 * digits ({@code librocksdbjni10576709545269562131.so}, {@code liblz4-java-8126...so}) or a UUID (snappy-java's
 * {@code snappy-1.1.10-<UUID>-libsnappyjava.so}). Such a module is named by the name it gives itself where it has a
 * plausible one (an ELF {@code DT_SONAME}, the name in a PE export directory), else by its file name without the random
 * part, the separator left dangling removed ({@code librocksdbjni.so}, {@code libzstd-jni-1.5.7.dll},
 * {@code snappy-1.1.10-libsnappyjava.so}). The module's own name wins because its build chose it: it is the same on
 * every host whichever loader copied the file and however it names copies, and it is exact where the file name is not
 * (zstd-jni's {@code -2} build suffix runs into the temporary digits; netty's loader may prefix a shaded copy).
 * A module whose file name has no random part keeps it exactly ({@code libz.so.1.2.13}, not its soname
 * {@code libz.so.1}), as it always was.
 *
 * <p>A random part is a run of at least {@value #MIN_RANDOM_DIGITS} decimal digits (version numbers have short runs;
 * a random unsigned {@code long} has fewer digits than that once in about eighteen billion), or a UUID in its usual
 * 8-4-4-4-12 hexadecimal form. Digits run together with an architecture's name ({@code x86_64} then netty's random digits) keep
 * the architecture's {@code 64} or {@code 32}. Runs once per module, never per sample.
 */
public final class StableModuleName {
    /** The shortest run of digits taken for a random part. */
    public static final int MIN_RANDOM_DIGITS = 10;
    /** The longest name a module's own name may have to be taken. */
    private static final int MAX_OWN_NAME = 255;
    /** Words that end in an architecture's word size when {@code 64} or {@code 32} follows them. */
    private static final String[] ARCHITECTURES = {"x86_", "x86-", "aarch_", "aarch", "amd", "arm", "ppc_", "ppc",
            "riscv", "loongarch_", "loongarch", "mips", "win", "linux"};
    private static final int UUID_LENGTH = 36;

    private StableModuleName() {
    }

    /** Whether a file name has a random part: a long run of digits or a UUID. */
    public static boolean hasRandomPart(String fileName) {
        return !withoutRandomPart(fileName).equals(fileName);
    }

    /**
     * The name of a module whose file is {@code fileName} and which calls itself {@code ownName} (null when it names
     * itself nothing, or the name could not be read).
     */
    public static String of(String fileName, String ownName) {
        String stripped = withoutRandomPart(fileName);
        if (stripped.equals(fileName)) {
            return fileName;
        }
        if (isPlausibleFileName(ownName)) {
            return withoutRandomPart(ownName);
        }
        return stripped;
    }

    /**
     * {@code fileName} without its random parts, each with the separator ({@code -}, {@code _} or {@code .}) it leaves
     * dangling; unchanged when it has none, or when nothing but random parts and separators would be left.
     */
    public static String withoutRandomPart(String fileName) {
        StringBuilder out = new StringBuilder(fileName.length());
        int i = 0;
        boolean changed = false;
        while (i < fileName.length()) {
            char c = fileName.charAt(i);
            int cut;
            if (isUuidAt(fileName, i)) {
                cut = i + UUID_LENGTH;
            } else if (isDigit(c)) {
                int end = i;
                while (end < fileName.length() && isDigit(fileName.charAt(end))) {
                    end++;
                }
                int kept = architectureDigits(fileName, i, out);
                if (end - i - kept < MIN_RANDOM_DIGITS) {
                    // A short run (a version), taken whole so that no random part starts inside it.
                    out.append(fileName, i, end);
                    i = end;
                    continue;
                }
                out.append(fileName, i, i + kept);
                cut = end;
            } else {
                out.append(c);
                i++;
                continue;
            }
            changed = true;
            i = cut;
            // Of a separator on each side of the cut, the one before goes (the one after may begin the extension);
            // at the start of the name, the one after.
            boolean separatorBefore = out.length() > 0 && isSeparator(out.charAt(out.length() - 1));
            boolean separatorAfter = i < fileName.length() && isSeparator(fileName.charAt(i));
            if (separatorBefore && (separatorAfter || i == fileName.length())) {
                out.setLength(out.length() - 1);
            } else if (out.length() == 0 && separatorAfter) {
                i++;
            }
        }
        if (!changed || out.length() == 0 || onlySeparators(out)) {
            return fileName;
        }
        return out.toString();
    }

    /** 2 when the digits at {@code i} begin with an architecture's word size glued to its name, else 0. */
    private static int architectureDigits(String s, int i, CharSequence before) {
        if (i + 2 > s.length() || !(s.startsWith("64", i) || s.startsWith("32", i))) {
            return 0;
        }
        String kept = before.toString().toLowerCase(Locale.ROOT);
        for (String a : ARCHITECTURES) {
            if (kept.endsWith(a)) {
                return 2;
            }
        }
        return 0;
    }

    /** Whether a UUID starts at {@code i}, not glued to hexadecimal digits on either side. */
    private static boolean isUuidAt(String s, int i) {
        if (i + UUID_LENGTH > s.length() || (i > 0 && isHexDigit(s.charAt(i - 1)))) {
            return false;
        }
        for (int k = 0; k < UUID_LENGTH; k++) {
            char c = s.charAt(i + k);
            boolean dash = k == 8 || k == 13 || k == 18 || k == 23;
            if (dash ? c != '-' : !isHexDigit(c)) {
                return false;
            }
        }
        return i + UUID_LENGTH == s.length() || !isHexDigit(s.charAt(i + UUID_LENGTH));
    }

    /** A name a file could have: not empty, not too long, no directory, no control character. */
    private static boolean isPlausibleFileName(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_OWN_NAME || onlySeparators(name)) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c == ':') {
                return false;
            }
        }
        return true;
    }

    private static boolean onlySeparators(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            if (!isSeparator(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSeparator(char c) {
        return c == '-' || c == '_' || c == '.';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
