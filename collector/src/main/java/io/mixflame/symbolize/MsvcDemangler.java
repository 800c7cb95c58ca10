package io.mixflame.symbolize;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.WString;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Demangles Microsoft C++ names ({@code ?name@@...}, the exports of DLLs built with MSVC) with DbgHelp's
 * UnDecorateSymbolName, the undecorator Windows' own tools use, into the form the Itanium demangler gives: qualified
 * name and parameters, without return type, calling convention or access. Where DbgHelp cannot be loaded (any system
 * but Windows) the name stays as it is.
 */
final class MsvcDemangler {
    private static final Logger LOG = LoggerFactory.getLogger(MsvcDemangler.class);
    /**
     * UNDNAME_NO_MS_KEYWORDS | NO_FUNCTION_RETURNS | NO_ALLOCATION_MODEL | NO_ALLOCATION_LANGUAGE |
     * NO_ACCESS_SPECIFIERS | NO_MEMBER_TYPE.
     */
    private static final int FLAGS = 0x2 | 0x4 | 0x8 | 0x10 | 0x80 | 0x200;
    private static final int MAX_CHARS = 4096;

    private MsvcDemangler() {
    }

    interface DbgHelp extends Library {
        int UnDecorateSymbolNameW(WString name, char[] out, int maxChars, int flags);
    }

    /** DbgHelp, looked up on the first mangled name. */
    private static final class Holder {
        static final Optional<DbgHelp> DBGHELP = load();
    }

    private static Optional<DbgHelp> load() {
        try {
            return Optional.of(Native.load("dbghelp", DbgHelp.class));
        } catch (UnsatisfiedLinkError e) {
            LOG.debug("Microsoft C++ names stay mangled: no dbghelp ({})", e.getMessage());
            return Optional.empty();
        }
    }

    /** Whether a name is in Microsoft's mangled form. */
    static boolean isMangled(String name) {
        return name.length() > 1 && name.charAt(0) == '?';
    }

    /** The demangled name, or {@code name} itself when it is not mangled or cannot be demangled. */
    static String demangle(String name) {
        if (!isMangled(name) || Holder.DBGHELP.isEmpty()) {
            return name;
        }
        char[] out = new char[MAX_CHARS];
        int length;
        try {
            length = Holder.DBGHELP.get().UnDecorateSymbolNameW(new WString(name), out, MAX_CHARS, FLAGS);
        } catch (RuntimeException | LinkageError e) {
            return name;
        }
        if (length <= 0 || length >= MAX_CHARS) {
            return name;
        }
        String plain = new String(out, 0, length);
        // An undecorator that did not understand the name hands it back as it was.
        return plain.isEmpty() || plain.equals(name) ? name : plain;
    }
}
