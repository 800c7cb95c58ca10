package io.mixflame.capture.perf;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * What the per-CPU capture adds to the reading of its rings, which every thread of the process shares: samples of
 * processes the sampled one forked left out, and those a grown thread's inherited event took beside its own; threads'
 * names and switches onto and off CPUs, reported to their listeners.
 */
final class PerCpuRecords implements PerfRecords.Extras {
    private static final int COMM_BYTES = 16;
    /** A switch record: its header, then the sample_id's pid, tid and time. */
    private static final int SWITCH_BYTES = 24;
    /** The record's misc bits: switched off the CPU (else onto it), and off while still runnable (Linux 4.17+). */
    private static final int MISC_SWITCH_OUT = 1 << 13;
    private static final int MISC_SWITCH_OUT_PREEMPT = 1 << 14;

    private final long pid;
    /** The stack copy of the inherited events. */
    private final int inheritedStackBytes;
    private final GrownThreads grown;
    private final byte[] comm = new byte[COMM_BYTES];
    private SampleCapture.ThreadNameListener names;
    private SampleCapture.SwitchListener switches;
    private long superseded;
    private long foreign;

    PerCpuRecords(long pid, int inheritedStackBytes, GrownThreads grown) {
        this.pid = pid;
        this.inheritedStackBytes = inheritedStackBytes;
        this.grown = grown;
    }

    void onThreadNamed(SampleCapture.ThreadNameListener listener) {
        names = listener;
    }

    void onThreadSwitched(SampleCapture.SwitchListener listener) {
        switches = listener;
    }

    /** Whether threads' switches are asked for. */
    boolean switchesWanted() {
        return switches != null;
    }

    @Override
    public boolean keeps(RawSample sample) {
        if (sample.pid != pid) {
            foreign++; // a process the sampled one forked, on a kernel without inherit_thread
            return false;
        }
        // The inherited event's sample of a thread that has a larger copy of its own: the kernel may cut a copy
        // asked for (the largest fits a 16-bit record only with less), so the inherited size is what tells.
        if (!grown.none() && sample.stackRequested > 0 && sample.stackRequested <= inheritedStackBytes
                && grown.indexOf(sample.tid) >= 0) {
            superseded++;
            return false;
        }
        return true;
    }

    @Override
    public void lost() {
        if (switches != null) {
            switches.lost();
        }
    }

    @Override
    public void other(int type, ByteBuffer buffer, int offset, int length) {
        if (type == PerfRecords.RECORD_SWITCH && switches != null && length >= SWITCH_BYTES) {
            // No fields of its own: the sample_id that follows holds the pid and tid, then the time.
            if (buffer.getInt(offset + 8) == pid) {
                int misc = buffer.getShort(offset + 4) & 0xffff;
                int kind = (misc & MISC_SWITCH_OUT) == 0 ? SampleCapture.SwitchListener.IN
                        : (misc & MISC_SWITCH_OUT_PREEMPT) != 0 ? SampleCapture.SwitchListener.OUT_PREEMPTED
                        : SampleCapture.SwitchListener.OUT_BLOCKED;
                switches.switched(buffer.getInt(offset + 12), kind, buffer.getLong(offset + 16));
            }
        } else if (type == PerfRecords.RECORD_COMM && names != null && length >= 16) {
            int tid = buffer.getInt(offset + 12);
            int n = 0;
            while (n < COMM_BYTES && 16 + n < length && buffer.get(offset + 16 + n) != 0) {
                comm[n] = buffer.get(offset + 16 + n);
                n++;
            }
            // A rename, seldom: a String here does not happen per sample.
            names.named(tid, new String(comm, 0, n, StandardCharsets.UTF_8));
        }
    }

    /** Samples of processes the sampled one forked, left out. */
    long foreign() {
        return foreign;
    }

    /** Samples of grown threads taken by their inherited event too, and left out. */
    long superseded() {
        return superseded;
    }
}
