package io.mixflame.image.pe;

import java.util.List;

/**
 * A decoded x64 UNWIND_INFO.
 *
 * @param version       1 or 2
 * @param flags         {@link #FLAG_EHANDLER}, {@link #FLAG_UHANDLER}, {@link #FLAG_CHAININFO}
 * @param prologSize    bytes of prolog
 * @param frameRegister Windows number of the frame register, 0 if the function has none
 * @param frameOffset   the frame register's offset from rsp at the time it was set, in units of 16 bytes
 * @param codes         the unwind codes in array order (the prolog's last operation first)
 * @param chainedEntry  the RUNTIME_FUNCTION this info is chained to, {@code null} unless {@link #isChained()}
 * @param chained       that entry's decoded unwind info, {@code null} unless {@link #isChained()}
 */
public record UnwindInfo(int version, int flags, int prologSize, int frameRegister, int frameOffset,
        List<UnwindCode> codes, RuntimeFunction chainedEntry, UnwindInfo chained) {
    public static final int FLAG_EHANDLER = 1;
    public static final int FLAG_UHANDLER = 2;
    public static final int FLAG_CHAININFO = 4;

    public boolean isChained() {
        return (flags & FLAG_CHAININFO) != 0;
    }

    /** Whether the function has an exception or termination handler. */
    public boolean hasHandler() {
        return (flags & (FLAG_EHANDLER | FLAG_UHANDLER)) != 0;
    }
}
