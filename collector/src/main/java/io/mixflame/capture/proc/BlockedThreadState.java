package io.mixflame.capture.proc;

import java.util.Optional;

/**
 * Where a thread that is blocked in the kernel stopped: the syscall and the user-space stack pointer and program
 * counter, from {@code /proc/PID/task/TID/syscall}. With the stack read through {@link ProcessMemory} the thread can
 * be walked without stopping it; reading the line again afterwards tells whether it moved meanwhile.
 *
 * @param syscall   the syscall number, or -1 when the thread is blocked outside a syscall (a page fault)
 * @param arguments the syscall's six arguments (empty when syscall is -1)
 * @param sp        user stack pointer
 * @param pc        user program counter (the instruction after the syscall)
 * @param line      the raw line, for comparing two reads exactly
 */
public record BlockedThreadState(long syscall, long[] arguments, long sp, long pc, String line) {

    /** Parses a line of the file; empty for {@code running} or a line not in the kernel's format. */
    static Optional<BlockedThreadState> parse(String line) {
        String[] f = line.trim().split("\\s+");
        try {
            if (f.length == 3 && f[0].equals("-1")) {
                return Optional.of(new BlockedThreadState(-1, new long[0], hex(f[1]), hex(f[2]), line));
            }
            if (f.length == 9) {
                long[] args = new long[6];
                for (int i = 0; i < 6; i++) {
                    args[i] = hex(f[i + 1]);
                }
                return Optional.of(new BlockedThreadState(Long.parseLong(f[0]), args, hex(f[7]), hex(f[8]), line));
            }
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s.startsWith("0x") ? s.substring(2) : s, 16);
    }
}
