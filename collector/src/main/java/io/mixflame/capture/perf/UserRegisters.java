package io.mixflame.capture.perf;

import io.mixflame.capture.HostArchitecture;
import io.mixflame.capture.HostRegisters;

/**
 * The user registers a sample carries ({@code PERF_SAMPLE_REGS_USER}), as the host's architecture asks for them:
 * the kernel stores the requested ones in ascending {@code perf_regs.h} number order, and each of those positions,
 * a slot, holds the register whose DWARF number {@link #registerAt} gives.
 */
public final class UserRegisters {
    /** {@code sample_regs_user}. */
    public static final long MASK = HostArchitecture.current().perfRegisterMask();
    private static final int[] DWARF_OF_SLOT = HostArchitecture.current().perfSampleRegisters();
    /** The slot of the program counter. */
    public static final int PC_SLOT = slotOf(HostRegisters.PC);
    /** The slot of the stack pointer. */
    public static final int SP_SLOT = slotOf(HostRegisters.SP);

    private UserRegisters() {
    }

    /**
     * Refuses perf sampling on an architecture the profiler has no description of: its samples' registers could not
     * be told apart.
     *
     * @throws PerfCaptureUnavailableException saying why, in one line
     */
    static void requireKnownArchitecture() throws PerfCaptureUnavailableException {
        String unsupported = HostArchitecture.unsupportedReason();
        if (unsupported != null) {
            throw new PerfCaptureUnavailableException(unsupported);
        }
    }

    /** How many registers a sample carries. */
    public static int count() {
        return DWARF_OF_SLOT.length;
    }

    /** The DWARF number of the register in a slot. */
    public static int registerAt(int slot) {
        return DWARF_OF_SLOT[slot];
    }

    /** The slot of a register by its DWARF number, or -1 when samples do not carry it. */
    public static int slotOf(int register) {
        for (int slot = 0; slot < DWARF_OF_SLOT.length; slot++) {
            if (DWARF_OF_SLOT[slot] == register) {
                return slot;
            }
        }
        return -1;
    }
}
