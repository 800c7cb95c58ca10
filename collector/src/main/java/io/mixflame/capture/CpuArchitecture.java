package io.mixflame.capture;

/**
 * What the architecture-neutral captures and unwinders need to know of the CPU the profiler runs on: which DWARF
 * register numbers are the program counter, the stack pointer and the frame pointer, how many register slots a
 * thread's registers take, and where each capture's raw layout of registers puts them (perf's user registers,
 * ptrace's register set, the in-thread timer's record). Everything is numbered as DWARF numbers the architecture's
 * registers, the numbering call frame information uses, so that a capture's registers are an unwinder's without
 * translation.
 *
 * <p>An architecture is one implementation in a package named for it (x86-64's in {@code capture.x64}), listed in
 * {@code META-INF/services/io.mixflame.capture.CpuArchitecture}; {@link HostArchitecture} picks the one that names
 * the JVM's {@code os.arch}. The arrays are read once, into the users' own fields: nothing here is asked per sample.
 */
public interface CpuArchitecture {
    /**
     * Room for registers in the in-thread timer's record ({@code REGISTERS} in {@code thread_timer.c}): the record's
     * layout is the same on every architecture, so that its readers need no per-architecture offsets.
     */
    int TIMER_RECORD_SLOTS = 17;
    /** The most register slots a set of known registers can mark: one bit each in a {@code long}. */
    int MAX_REGISTERS = 64;

    /** The architecture's name as messages give it ({@code x86-64}). */
    String name();

    /** Whether the JVM's {@code os.arch} value names this architecture. */
    boolean isNamed(String osArch);

    /** Register slots: DWARF numbers from 0 up to this, at most {@link #MAX_REGISTERS}. */
    int registerCount();

    /** The DWARF number of the program counter (on x86-64, the return address column). */
    int programCounter();

    /** The DWARF number of the stack pointer. */
    int stackPointer();

    /** The DWARF number of the frame pointer, the register frame-pointer chains link through. */
    int framePointer();

    /**
     * The registers perf samples carry: {@code sample_regs_user}, a bit per register of the kernel's
     * {@code perf_regs.h} numbering. Among them at least the program counter and the stack pointer.
     */
    long perfRegisterMask();

    /**
     * The DWARF number of each register a perf sample carries, in the order the kernel writes them (ascending
     * {@code perf_regs.h} number): as many as {@link #perfRegisterMask} has bits.
     */
    int[] perfSampleRegisters();

    /** The size of the register set ptrace reads ({@code PTRACE_GETREGSET} of {@code NT_PRSTATUS}). */
    int ptraceRegisterBytes();

    /**
     * For each DWARF number below {@link #registerCount}, the index of the 8-byte word of ptrace's register set
     * that holds it, or -1 for a register the walk does not start from.
     */
    int[] ptraceRegisterWords();

    /**
     * The DWARF number of each register slot of the in-thread timer's record, in the order the signal handler's
     * architecture header writes them, or -1 for a slot it leaves unused: at most {@link #TIMER_RECORD_SLOTS}.
     */
    int[] timerRecordRegisters();
}
