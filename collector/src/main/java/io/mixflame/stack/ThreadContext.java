package io.mixflame.stack;

/**
 * Registers a caller supplies to walk from (the CONTEXT of the Windows APIs).
 *
 * @param pc       the instruction pointer
 * @param sp       the stack pointer
 * @param fp       the frame pointer, or 0 when unknown
 * @param stack    a copy of the stack from sp, or null to read it from the process
 */
public record ThreadContext(long pc, long sp, long fp, byte[] stack) {
}
