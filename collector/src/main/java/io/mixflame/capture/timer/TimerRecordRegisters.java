package io.mixflame.capture.timer;

import io.mixflame.capture.CpuArchitecture;
import io.mixflame.capture.HostArchitecture;
import io.mixflame.capture.perf.UserRegisters;

/**
 * Where the in-thread timer's record holds each register a sample carries: the signal handler's architecture header
 * writes the registers into the record's slots in its architecture's order, and the reader moves them into the
 * perf sample's slots ({@link UserRegisters}) that the walks read, as perf's samples do.
 */
final class TimerRecordRegisters {
    /** For each of the sample's slots, the byte offset in the record's register area that holds it; -1 for none. */
    private static final int[] RECORD_OFFSET_OF_SAMPLE_SLOT = offsets(HostArchitecture.current());

    private TimerRecordRegisters() {
    }

    /**
     * The byte offset of a sample slot's register from the record's register area, or -1 when the handler does not
     * write it.
     */
    static int recordOffset(int sampleSlot) {
        return RECORD_OFFSET_OF_SAMPLE_SLOT[sampleSlot];
    }

    static int[] offsets(CpuArchitecture architecture) {
        int[] recordSlots = architecture.timerRecordRegisters();
        int[] sampleRegisters = architecture.perfSampleRegisters();
        int[] offsets = new int[sampleRegisters.length];
        for (int slot = 0; slot < sampleRegisters.length; slot++) {
            offsets[slot] = -1;
            for (int r = 0; r < recordSlots.length; r++) {
                if (recordSlots[r] == sampleRegisters[slot]) {
                    offsets[slot] = 8 * r;
                }
            }
        }
        return offsets;
    }
}
