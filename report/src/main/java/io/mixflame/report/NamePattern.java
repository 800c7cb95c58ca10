package io.mixflame.report;

import io.mixflame.profile.Frame;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A frame-name pattern of {@code include}/{@code exclude}, in one of two spellings:
 *
 * <ul>
 *   <li>async-profiler's <b>glob</b>, which must match the whole name and where {@code *} stands for any run of
 *       characters ({@code java/*}, {@code *Unsafe.park*}, {@code *.compress}); async-profiler allows {@code *}
 *       only at the ends, here it may be anywhere;</li>
 *   <li>mixflame's <b>regular expression</b>, which may match anywhere in the name ({@code HashMap},
 *       {@code ^java/util/}, {@code alpha.*}).</li>
 * </ul>
 *
 * A pattern is a glob when it has a {@code *} and none of its stars can be a regular expression's repetition of
 * what precedes it: a star right after {@code .}, {@code )}, {@code ]}, {@code }}, {@code \}, {@code ?},
 * {@code +} or another star makes the whole pattern a regular expression; so does a pattern without a star.
 * Thus {@code Primes.*} is the regular expression (names containing {@code Primes}), which keeps what
 * async-profiler's glob keeps (names starting with {@code Primes.}) and possibly more.
 *
 * <p>A pattern written as a label frame, {@code [key=value]} with a valid label key ({@link Frame#isLabelKey}), is
 * always a glob: {@code [endpoint=/checkout]} matches that label's frame exactly and {@code [endpoint=/api/*]} every
 * value under {@code /api/}, stars anywhere, even after a dot. As a regular expression it would be a character class
 * matching nearly every name.
 */
public final class NamePattern {

    private final String text;
    private final Pattern regex;
    private final boolean whole;

    private NamePattern(String text, Pattern regex, boolean whole) {
        this.text = text;
        this.regex = regex;
        this.whole = whole;
    }

    /**
     * Reads a pattern.
     *
     * @throws IllegalArgumentException with a one-line message when it is empty or a malformed regular expression
     */
    public static NamePattern parse(String text) {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("empty pattern");
        }
        if (isGlob(text) || isLabelPattern(text)) {
            return new NamePattern(text, globRegex(text), true);
        }
        try {
            return new NamePattern(text, Pattern.compile(text), false);
        } catch (PatternSyntaxException e) {
            // The JDK's message spans lines (it draws a caret under the pattern); its description is one.
            throw new IllegalArgumentException("'" + text + "' is not a valid regular expression: "
                    + e.getDescription());
        }
    }

    /** Whether {@code text} is read as a glob rather than a regular expression. */
    static boolean isGlob(String text) {
        boolean star = false;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) != '*') {
                continue;
            }
            star = true;
            if (i > 0 && ".)]}\\?+*".indexOf(text.charAt(i - 1)) >= 0) {
                return false;
            }
        }
        return star;
    }

    /** Whether {@code text} is spelled as a label frame, {@code [key=...]} with a valid key. */
    static boolean isLabelPattern(String text) {
        int eq = text.indexOf('=');
        return text.length() >= 4 && text.charAt(0) == '[' && text.charAt(text.length() - 1) == ']' && eq > 0
                && Frame.isLabelKey(text.substring(1, eq));
    }

    private static Pattern globRegex(String glob) {
        StringBuilder sb = new StringBuilder();
        int from = 0;
        for (int star = glob.indexOf('*'); star >= 0; star = glob.indexOf('*', from)) {
            if (star > from) {
                sb.append(Pattern.quote(glob.substring(from, star)));
            }
            sb.append(".*");
            from = star + 1;
        }
        if (from < glob.length()) {
            sb.append(Pattern.quote(glob.substring(from)));
        }
        // DOTALL: a name is one line once escaped, but a star must not stop at a character it does not know.
        return Pattern.compile(sb.toString(), Pattern.DOTALL);
    }

    /** Whether the frame name matches: wholly for a glob, anywhere in it for a regular expression. */
    public boolean matches(String name) {
        return whole ? regex.matcher(name).matches() : regex.matcher(name).find();
    }

    /** True for async-profiler's glob spelling, and for a label frame's. */
    public boolean isGlob() {
        return whole;
    }

    /** The pattern as it was written. */
    @Override
    public String toString() {
        return text;
    }
}
