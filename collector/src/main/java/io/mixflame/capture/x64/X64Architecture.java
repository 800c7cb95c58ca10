package io.mixflame.capture.x64;

import io.mixflame.capture.CpuArchitecture;
import java.util.Arrays;

/**
 * x86-64 as the captures and unwinders see it: DWARF's register numbers ({@link X64Registers}), perf's user
 * registers ({@link X64PerfRegisters}), ptrace's {@code user_regs_struct} ({@link X64UserRegs}), and the in-thread
 * timer's record, which {@code native/arch/amd64/thread_timer_arch.h} fills by DWARF number.
 */
public final class X64Architecture implements CpuArchitecture {

    /** Public, with no arguments: made by {@link java.util.ServiceLoader}. */
    public X64Architecture() {
    }

    @Override
    public String name() {
        return "x86-64";
    }

    /** Linux and Windows JVMs say {@code amd64}; some others {@code x86_64}. */
    @Override
    public boolean isNamed(String osArch) {
        return osArch.equals("amd64") || osArch.equals("x86_64");
    }

    @Override
    public int registerCount() {
        return X64Registers.COUNT;
    }

    @Override
    public int programCounter() {
        return X64Registers.RIP;
    }

    @Override
    public int stackPointer() {
        return X64Registers.RSP;
    }

    @Override
    public int framePointer() {
        return X64Registers.RBP;
    }

    @Override
    public long perfRegisterMask() {
        return X64PerfRegisters.MASK;
    }

    @Override
    public int[] perfSampleRegisters() {
        return X64PerfRegisters.DWARF_IN_SAMPLE_ORDER.clone();
    }

    @Override
    public int ptraceRegisterBytes() {
        return X64UserRegs.BYTES;
    }

    @Override
    public int[] ptraceRegisterWords() {
        int[] words = new int[X64Registers.COUNT];
        Arrays.fill(words, -1);
        words[X64Registers.RIP] = X64UserRegs.RIP;
        words[X64Registers.RSP] = X64UserRegs.RSP;
        words[X64Registers.RBP] = X64UserRegs.RBP;
        words[X64Registers.RBX] = X64UserRegs.RBX;
        words[X64Registers.R12] = X64UserRegs.R12;
        return words;
    }

    /** Every register by its DWARF number, slot for slot: the header copies the whole of DWARF's 17. */
    @Override
    public int[] timerRecordRegisters() {
        int[] slots = new int[X64Registers.COUNT];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = i;
        }
        return slots;
    }
}
