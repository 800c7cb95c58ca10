/*
 * A JNI library as hand-written assembly often is: compiled without unwind tables (so neither .eh_frame nor
 * .debug_frame describes any of its functions) and with rbp used as a data register in its hot loop, so that
 * neither call frame information nor the frame-pointer chain leads out of it. Java's callers must still be found.
 */
#include <jni.h>

/* The loop counter lives in rbp, and the word at sp is the saved rbp, not a return address. */
__attribute__((noinline)) static long gap_churn(long n) {
    long acc = 0;
    __asm__ volatile(
        "push %%rbp\n\t"
        "mov %1, %%rbp\n"
        "1:\n\t"
        "add %%rbp, %0\n\t"
        "rol $7, %0\n\t"
        "xor %%rbp, %0\n\t"
        "dec %%rbp\n\t"
        "jnz 1b\n\t"
        "pop %%rbp\n\t"
        : "+r"(acc)
        : "r"(n)
        : "cc", "memory");
    return acc;
}

JNIEXPORT jlong JNICALL Java_io_mixflame_testapp_JniGapApp_churn(JNIEnv *env, jclass cls, jlong n) {
    return gap_churn((long) n) + 1;
}
