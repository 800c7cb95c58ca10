package io.mixflame.symbolize;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import io.mixflame.process.linux.LibcLibrary;
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
     * libstdc++'s demangler, bound on the first mangled name rather than when the class loads: a process with no
     * Itanium names (a Windows JVM's modules) never needs libstdc++, and must not log that it lacks it. Direct
     * mapping, not {@code Function.invoke}: that converts every argument by reflection and allocated a JNA
     * {@code Memory} (with its cleaner) per name, and was compiled by the service's JIT for it.
     */
    private static final class Itanium {
        static final boolean LINKED = link();

        private static boolean link() {
            try {
                Native.register(Itanium.class, NativeLibrary.getInstance("libstdc++.so.6"));
                return true;
            } catch (UnsatisfiedLinkError e) {
                LOG.info("C++ names stay mangled: libstdc++.so.6 not found ({})",
                        String.valueOf(e.getMessage()).replaceAll("\\s+", " ").strip());
                return false;
            }
        }

        static native Pointer __cxa_demangle(String mangled, Pointer buffer, Pointer length, int[] status);
    }

    /** libc's {@code free}, for the demangler's answers. */
    private static final class Libc {
        static final boolean LINKED = link();

        private static boolean link() {
            try {
                Native.register(Libc.class, LibcLibrary.get());
                return true;
            } catch (UnsatisfiedLinkError e) {
                return false;
            }
        }

        static native void free(Pointer memory);
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
        if (!name.startsWith("_Z") || !Itanium.LINKED || !Libc.LINKED) {
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
        int[] status = {-1};
        Pointer result = Itanium.__cxa_demangle(mangled, null, null, status);
        if (result == null) {
            return name;
        }
        try {
            return status[0] == 0 ? result.getString(0, "UTF-8") + suffix : name;
        } finally {
            Libc.free(result);
        }
    }
}
