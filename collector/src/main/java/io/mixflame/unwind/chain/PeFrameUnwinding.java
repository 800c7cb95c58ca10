package io.mixflame.unwind.chain;

import io.mixflame.unwind.Unwinder;
import io.mixflame.unwind.pe.PeUnwinder;
import io.mixflame.unwind.windows.StackWalkUnwinder;
import java.util.Locale;

/** Who unwinds the native frames of PE modules: mixflame's own reader of their unwind data, or DbgHelp. */
public enum PeFrameUnwinding {
    /** {@code .pdata}/{@code .xdata} read by mixflame ({@link PeUnwinder}): the default. */
    OWN,
    /** DbgHelp's StackWalk64, one step at a time ({@link StackWalkUnwinder}): Windows only. */
    DBGHELP;

    /** The unwinder; DbgHelp's fails with the reason where it cannot be loaded. */
    Unwinder unwinder() {
        return this == OWN ? new PeUnwinder() : new StackWalkUnwinder();
    }

    /**
     * Parses an option value, {@code own} or {@code dbghelp}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static PeFrameUnwinding parse(String value) {
        for (PeFrameUnwinding u : values()) {
            if (u.name().toLowerCase(Locale.ROOT).equals(value)) {
                return u;
            }
        }
        throw new IllegalArgumentException("unknown walker '" + value + "' (expected own or dbghelp)");
    }
}
