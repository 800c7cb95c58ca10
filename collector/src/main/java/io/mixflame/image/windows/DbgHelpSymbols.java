package io.mixflame.image.windows;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.WString;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names from PDBs through DbgHelp: each image is loaded into a DbgHelp session of the profiler's own (not the
 * target process's: nothing of the target is touched), its functions enumerated once, and the image unloaded. The PDB
 * is looked for where DbgHelp looks — the path recorded in the image — and in the image's own directory, then in
 * {@code _NT_SYMBOL_PATH}, Windows' own symbol path option (a symbol server named there is used as DbgHelp uses it).
 * An image is read once, when its names are first needed, off the sampling path. DbgHelp is single-threaded: every
 * call holds one lock.
 */
public final class DbgHelpSymbols implements DebugSymbolSource {
    private static final Logger LOG = LoggerFactory.getLogger(DbgHelpSymbols.class);
    /** A session handle of our own: DbgHelp only needs it unique when the process is not invaded. */
    private static final long SESSION = 0x6d66_6466L;
    /** Where each image is loaded in the session; only RVAs are kept. */
    private static final long BASE = 0x10_0000_0000L;
    private static final int SYMOPT_UNDNAME = 0x2;
    private static final int SYMOPT_FAIL_CRITICAL_ERRORS = 0x200;
    private static final int SYMOPT_NO_PROMPTS = 0x80000;
    private static final int SYM_TAG_FUNCTION = 5;
    private static final int SYM_TAG_PUBLIC_SYMBOL = 10;
    /** SYMBOL_INFOW offsets on x64. */
    private static final int SI_SIZE = 28;
    private static final int SI_FLAGS = 40;
    /** SYMFLAG_EXPORT: a name DbgHelp took from the export table, which the image's own reader names already. */
    private static final int SYMFLAG_EXPORT = 0x200;
    private static final int SI_ADDRESS = 56;
    private static final int SI_TAG = 72;
    private static final int SI_NAME_LEN = 76;
    private static final int SI_NAME = 84;
    private static final int MAX_NAME = 2048;
    private static final int MAX_FUNCTIONS = 1 << 21;
    private static final Object LOCK = new Object();
    private static DbgHelp dbghelp;
    private static boolean unavailable;

    interface DbgHelp extends Library {
        int SymSetOptions(int options);

        boolean SymInitializeW(Pointer process, WString searchPath, boolean invade);

        boolean SymSetSearchPathW(Pointer process, WString searchPath);

        long SymLoadModuleExW(Pointer process, Pointer file, WString image, WString module, long base, int size,
                              Pointer data, int flags);

        boolean SymUnloadModule64(Pointer process, long base);

        boolean SymEnumSymbolsW(Pointer process, long base, WString mask, EnumCallback callback, Pointer context);
    }

    interface EnumCallback extends Callback {
        boolean invoke(Pointer symbolInfo, int size, Pointer context);
    }

    @Override
    public void functionsOf(String path, long sizeOfImage, Sink sink) {
        synchronized (LOCK) {
            DbgHelp d = session();
            if (d == null) {
                return;
            }
            Pointer session = new Pointer(SESSION);
            d.SymSetSearchPathW(session, new WString(searchPath(path)));
            long base = d.SymLoadModuleExW(session, null, new WString(path), null, BASE, (int) sizeOfImage, null, 0);
            if (base == 0) {
                return;
            }
            int[] count = new int[1];
            try {
                d.SymEnumSymbolsW(session, base, new WString("*"), (info, size, context) -> {
                    int tag = info.getInt(SI_TAG);
                    boolean export = (info.getInt(SI_FLAGS) & SYMFLAG_EXPORT) != 0;
                    if ((tag == SYM_TAG_FUNCTION || tag == SYM_TAG_PUBLIC_SYMBOL) && !export
                            && count[0]++ < MAX_FUNCTIONS) {
                        int length = Math.min(info.getInt(SI_NAME_LEN), MAX_NAME);
                        String name = new String(info.getCharArray(SI_NAME, length));
                        long rva = info.getLong(SI_ADDRESS) - base;
                        if (rva >= 0 && rva < sizeOfImage && !name.isEmpty()) {
                            // A public symbol's size says nothing (0 in Windows' DbgHelp, 1 in Wine's): the image's
                            // unwind data sizes it instead.
                            sink.function(rva, tag == SYM_TAG_FUNCTION ? info.getInt(SI_SIZE) & 0xffffffffL : 0,
                                    name);
                        }
                    }
                    return true;
                }, null);
            } catch (RuntimeException | Error e) {
                LOG.debug("symbols of {} could not be enumerated: {}", path, e.toString());
            } finally {
                d.SymUnloadModule64(session, base);
            }
        }
    }

    /** The image's directory, then {@code _NT_SYMBOL_PATH}. */
    static String searchPath(String imagePath) {
        Path dir = Path.of(imagePath).getParent();
        String env = System.getenv("_NT_SYMBOL_PATH");
        String own = dir == null ? "" : dir.toString();
        return env == null || env.isBlank() ? own : own + ";" + env;
    }

    private static DbgHelp session() {
        if (dbghelp == null && !unavailable) {
            try {
                DbgHelp d = Native.load("dbghelp", DbgHelp.class);
                d.SymSetOptions(SYMOPT_UNDNAME | SYMOPT_FAIL_CRITICAL_ERRORS | SYMOPT_NO_PROMPTS);
                if (!d.SymInitializeW(new Pointer(SESSION), null, false)) {
                    throw new IllegalStateException("SymInitialize failed");
                }
                dbghelp = d;
            } catch (RuntimeException | LinkageError e) {
                unavailable = true;
                LOG.info("no names from PDBs: DbgHelp is not available ({})", e.getMessage());
            }
        }
        return dbghelp;
    }
}
