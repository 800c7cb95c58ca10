/*
 * A program whose thread, named "mf-described worker" with SetThreadDescription, waits in functions it does not
 * export: only its PDB (or nothing) can name them. Prints "ready PID" once the thread waits, then waits itself until
 * killed.
 */
#define _WIN32_WINNT 0x0A00
#include <windows.h>
#include <stdio.h>

static volatile LONG waiting;

__attribute__((noinline)) void mf_parked_in_global(void) {
    InterlockedExchange(&waiting, 1);
    Sleep(INFINITE);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) DWORD WINAPI mf_global_worker(LPVOID unused) {
    (void) unused;
    SetThreadDescription(GetCurrentThread(), L"mf-described worker");
    mf_parked_in_global();
    __asm__ volatile("" ::: "memory");
    return 0;
}

int main(void) {
    HANDLE t = CreateThread(NULL, 0, mf_global_worker, NULL, 0, NULL);
    if (t == NULL) {
        return 1;
    }
    while (InterlockedCompareExchange(&waiting, 0, 0) == 0) {
        Sleep(10);
    }
    printf("ready %lu\n", GetCurrentProcessId());
    fflush(stdout);
    Sleep(INFINITE);
    return 0;
}
