package io.mixflame.capture.perf;

import java.nio.ByteBuffer;

/**
 * Reads a {@code PERF_RECORD_SAMPLE} laid out for the sample_type of {@link PerfEventAttr}: ip; pid, tid; time;
 * the kernel callchain (when asked for); the user registers; the user stack copy. Every length is checked against
 * the record's size, so a record of another shape is rejected rather than misread.
 */
final class SampleRecordParser {
    private static final long CONTEXT_KERNEL = -128L;
    private static final long CONTEXT_USER = -512L;
    private static final long CONTEXT_MAX = -4095L;

    private final boolean callchain;

    SampleRecordParser(boolean callchain) {
        this.callchain = callchain;
    }

    /** Fills {@code out}; returns false for a record that does not have the expected shape. */
    boolean parse(ByteBuffer b, int offset, int length, RawSample out) {
        int end = offset + length;
        int p = offset + 8;
        if (p + 24 > end) {
            return false;
        }
        out.ip = b.getLong(p);
        out.pid = b.getInt(p + 8);
        out.tid = b.getInt(p + 12);
        out.time = b.getLong(p + 16);
        p += 24;
        out.kernelDepth = 0;
        if (callchain) {
            if (p + 8 > end) {
                return false;
            }
            long nr = b.getLong(p);
            p += 8;
            if (nr < 0 || nr > (end - p) / 8) {
                return false;
            }
            boolean kernel = false;
            for (int i = 0; i < nr; i++) {
                long ip = b.getLong(p + 8 * i);
                if (ip == CONTEXT_KERNEL) {
                    kernel = true;
                } else if (ip == CONTEXT_USER) {
                    kernel = false;
                } else if (ip < CONTEXT_MAX || ip >= 0) {
                    if (kernel && out.kernelDepth < out.kernelChain.length) {
                        out.kernelChain[out.kernelDepth++] = ip;
                    }
                }
            }
            p += (int) (8 * nr);
        }
        if (p + 8 > end) {
            return false;
        }
        long abi = b.getLong(p);
        p += 8;
        out.hasRegisters = abi != 0;
        if (out.hasRegisters) {
            int n = out.registers.length;
            if (p + 8 * n > end) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                out.registers[i] = b.getLong(p + 8 * i);
            }
            p += 8 * n;
        }
        out.stackLength = 0;
        out.stackRequested = 0;
        if (p + 8 > end) {
            return false;
        }
        long size = b.getLong(p);
        p += 8;
        if (size > 0) {
            if (size > end - p - 8) {
                return false;
            }
            out.stackRequested = (int) size;
            long dynamic = b.getLong(p + (int) size);
            int valid = (int) Math.min(Math.min(size, dynamic), out.stack.length);
            b.get(p, out.stack, 0, valid);
            out.stackLength = valid;
        }
        return true;
    }
}
