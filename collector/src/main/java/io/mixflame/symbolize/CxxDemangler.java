package io.mixflame.symbolize;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Demangles C++ names of either ABI: Itanium names ({@code _ZN...}) with {@code __cxa_demangle} of the libstdc++ on
 * the machine, the same demangler gdb and c++filt agree with; Microsoft names ({@code ?name@@...}) with DbgHelp
 * ({@link MsvcDemangler}). A name that is not mangled, or a machine without the library, keeps the name as it is.
 */
public final class CxxDemangler {
    private static final Logger LOG = LoggerFactory.getLogger(CxxDemangler.class);
    private CxxDemangler() {
    }

    /**
     * The library, looked up on the first mangled name rather than when the class loads: a process with no Itanium
     * names (a Windows JVM's modules) never needs libstdc++, and must not log that it lacks it.
     */
    private static final class Library {
        static final Optional<Function> DEMANGLE = lookup("__cxa_demangle");
        static final Optional<Function> FREE = lookupFree();
    }

    private static Optional<Function> lookup(String name) {
        try {
            return Optional.of(NativeLibrary.getInstance("libstdc++.so.6").getFunction(name));
        } catch (UnsatisfiedLinkError e) {
            LOG.info("C++ names stay mangled: libstdc++.so.6 not found ({})",
                    e.getMessage().replaceAll("\\s+", " ").strip());
            return Optional.empty();
        }
    }

    private static Optional<Function> lookupFree() {
        try {
            return Optional.of(NativeLibrary.getInstance("c").getFunction("free"));
        } catch (UnsatisfiedLinkError e) {
            return Optional.empty();
        }
    }

    /** Whether a name is in a mangled form (Itanium or Microsoft). */
    public static boolean isMangled(String name) {
        return name.startsWith("_Z") || MsvcDemangler.isMangled(name);
    }

    /** The demangled name, or {@code name} itself when it is not mangled or cannot be demangled. */
    public static String demangle(String name) {
        if (MsvcDemangler.isMangled(name)) {
            return MsvcDemangler.demangle(name);
        }
        if (!name.startsWith("_Z") || Library.DEMANGLE.isEmpty() || Library.FREE.isEmpty()) {
            return name;
        }
        // A trailing "@plt" or ".cold" is ours or the compiler's, not part of the mangled name.
        String suffix = "";
        String mangled = name;
        int at = name.indexOf('@');
        if (at > 0) {
            suffix = name.substring(at);
            mangled = name.substring(0, at);
        }
        try (Memory status = new Memory(4)) {
            status.setInt(0, -1);
            Pointer result = (Pointer) Library.DEMANGLE.get().invoke(Pointer.class,
                    new Object[] {mangled, Pointer.NULL, Pointer.NULL, status});
            if (result == null || status.getInt(0) != 0) {
                return name;
            }
            try {
                return result.getString(0, "UTF-8") + suffix;
            } finally {
                Library.FREE.get().invokeVoid(new Object[] {result});
            }
        }
    }
}
