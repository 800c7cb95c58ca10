package io.mixflame.capture;

/**
 * The host architecture's register numbers as constants, read once from {@link HostArchitecture}: what the
 * per-sample code of captures and unwinders indexes by, as cheaply as literal numbers.
 */
public final class HostRegisters {
    /** Register slots; DWARF numbers run from 0 below this. */
    public static final int COUNT = HostArchitecture.current().registerCount();
    /** The program counter's DWARF number. */
    public static final int PC = HostArchitecture.current().programCounter();
    /** The stack pointer's DWARF number. */
    public static final int SP = HostArchitecture.current().stackPointer();
    /** The frame pointer's DWARF number. */
    public static final int FP = HostArchitecture.current().framePointer();

    private HostRegisters() {
    }
}
