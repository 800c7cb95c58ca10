package io.mixflame.capture;

import java.util.Arrays;

/**
 * Stands for an architecture the profiler has no description of, so that classes sized by the host's registers still
 * load (a JVM on such a CPU must not fail for the profiler's sake): the captures that read registers refuse to start
 * and give {@link #reason}, and nothing else reads these numbers.
 */
final class UnsupportedArchitecture implements CpuArchitecture {
    private final String osArch;
    private final String reason;

    UnsupportedArchitecture(String osArch, String reason) {
        this.osArch = osArch;
        this.reason = reason;
    }

    /** Why registers cannot be captured here, in one line. */
    String reason() {
        return reason;
    }

    @Override
    public String name() {
        return osArch;
    }

    @Override
    public boolean isNamed(String arch) {
        return osArch.equals(arch);
    }

    @Override
    public int registerCount() {
        // Every number an architecture could use stays in bounds: code that is x86-64 by nature (Windows x64's) and
        // runs here by mistake indexes no array out of its end.
        return MAX_REGISTERS;
    }

    @Override
    public int programCounter() {
        return 0;
    }

    @Override
    public int stackPointer() {
        return 1;
    }

    @Override
    public int framePointer() {
        return 2;
    }

    @Override
    public long perfRegisterMask() {
        return 0;
    }

    @Override
    public int[] perfSampleRegisters() {
        return new int[0];
    }

    @Override
    public int ptraceRegisterBytes() {
        return 0;
    }

    @Override
    public int[] ptraceRegisterWords() {
        int[] none = new int[MAX_REGISTERS];
        Arrays.fill(none, -1);
        return none;
    }

    @Override
    public int[] timerRecordRegisters() {
        return new int[0];
    }
}
