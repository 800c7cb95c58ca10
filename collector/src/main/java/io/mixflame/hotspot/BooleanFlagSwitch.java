package io.mixflame.hotspot;

import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleMap;
import io.mixflame.process.MemoryReadException;
import io.mixflame.process.ProcessMemory;
import java.util.OptionalLong;

/**
 * Turns on a boolean flag of a running JVM where its flag table says the value lies, as a command-line
 * {@code -XX:+Flag} would have set it at start. Meant for flags that the JVM reads anew each time it uses them and
 * that are not manageable (so the management API refuses them), such as {@code DebugNonSafepoints}, which the
 * compilers read at every compilation: the profiler turns it on in its own JVM so that compiled code from then on
 * records where each instruction's inlined method is, not only where its safepoints are.
 */
public final class BooleanFlagSwitch {
    /** What became of the flag. */
    public enum Outcome {
        /** It was on already (the command line said so, or an earlier switch). */
        ALREADY_ON,
        /** It is on now. */
        TURNED_ON,
        /** This JVM has no such flag, or does not describe its flag table. */
        NO_SUCH_FLAG,
        /** The flag was found but its value could not be written or did not read back as on. */
        NOT_WRITTEN
    }

    private BooleanFlagSwitch() {
    }

    /**
     * Turns a boolean flag on in the JVM of a process.
     *
     * @param modules the process's modules (libjvm among them)
     * @param memory  its memory; written through {@link ProcessMemory#writeByte}
     * @param name    the flag's name, as on the command line without {@code -XX:+}
     */
    public static Outcome turnOn(ModuleMap modules, ProcessMemory memory, String name) {
        LoadedModule libjvm = modules.jvmLibrary();
        if (libjvm == null) {
            return Outcome.NO_SUCH_FLAG;
        }
        try {
            VmReader reader = new VmReader(memory);
            JvmFlags flags = new JvmFlags(VmStructs.read(reader, libjvm), reader, name);
            OptionalLong address = flags.address(name);
            if (address.isEmpty()) {
                return Outcome.NO_SUCH_FLAG;
            }
            if (!flags.isBoolean(name)) {
                // Not described as a boolean (or not described at all): a byte of an int would be written.
                return Outcome.NOT_WRITTEN;
            }
            long at = address.getAsLong();
            // A flag's value is one of libjvm's globals: in its image's data or in the zeroed memory mapped right
            // after it (.bss, which the maps do not name). A table pointing below libjvm is not one to write through.
            if (at < libjvm.start()) {
                return Outcome.NOT_WRITTEN;
            }
            int before = reader.u8(at);
            if (before == 1) {
                return Outcome.ALREADY_ON;
            }
            if (before != 0 || !memory.writeByte(at, (byte) 1)) {
                return Outcome.NOT_WRITTEN;
            }
            return reader.u8(at) == 1 ? Outcome.TURNED_ON : Outcome.NOT_WRITTEN;
        } catch (UnsupportedVmException | MemoryReadException | RuntimeException e) {
            return Outcome.NO_SUCH_FLAG;
        }
    }
}
