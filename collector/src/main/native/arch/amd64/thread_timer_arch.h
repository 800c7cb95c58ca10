/*
 * thread_timer.c's x86-64 part (os.arch amd64): where the interrupted thread's context keeps its registers, how the
 * thread's TLS block is found, and what a thread blocked in a system call looks like. The build picks this file by
 * the JVM's name for the architecture (arch/<os.arch>/thread_timer_arch.h); another architecture adds its own
 * directory with the same functions, and thread_timer.c stays as it is.
 *
 * Everything here runs inside the signal handler: plain loads, no calls.
 */
#ifndef THREAD_TIMER_ARCH_H
#define THREAD_TIMER_ARCH_H

#include <errno.h>
#include <stdint.h>
#include <ucontext.h>

/*
 * The record's register slots, each the gregs index of the register in it: all of DWARF's 17 x86-64 registers in
 * DWARF's order, as io.mixflame.capture.x64.X64Architecture.timerRecordRegisters() reads them.
 */
static const int RECORD_SLOT_GREG[REGISTERS] = {
    REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
    REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP
};

static inline uint64_t context_sp(const ucontext_t *context) {
    return (uint64_t) context->uc_mcontext.gregs[REG_RSP];
}

static inline uint64_t context_pc(const ucontext_t *context) {
    return (uint64_t) context->uc_mcontext.gregs[REG_RIP];
}

/* Fills the record's register slots. */
static inline void context_registers(const ucontext_t *context, uint64_t slots[REGISTERS]) {
    const greg_t *g = context->uc_mcontext.gregs;
    for (int i = 0; i < REGISTERS; i++) {
        slots[i] = (uint64_t) g[RECORD_SLOT_GREG[i]];
    }
}

/* The thread's TLS block (%fs:0), just above its stack for threads glibc made. */
static inline uint64_t thread_pointer(void) {
    uint64_t pointer;
    __asm__ volatile("mov %%fs:0, %0" : "=r"(pointer));
    return pointer;
}

/* The code around the pc that tells a blocked system call: SYSCALL_BEFORE bytes before it, SYSCALL_BYTES in all. */
#define SYSCALL_BEFORE 2
#define SYSCALL_BYTES 4

/*
 * Whether the thread was blocked in a system call: the kernel leaves its pc on the syscall instruction (0f 05) to
 * restart it, or just past it with -EINTR in rax.
 */
static inline int blocked_in_syscall(const ucontext_t *context, const uint8_t code[SYSCALL_BYTES]) {
    return (code[2] == 0x0f && code[3] == 0x05)
            || (context->uc_mcontext.gregs[REG_RAX] == -EINTR && code[0] == 0x0f && code[1] == 0x05);
}

#endif
