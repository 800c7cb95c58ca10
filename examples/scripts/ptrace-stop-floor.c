/*
 * The least a ptrace stop costs on this machine, without Java or JNA: stops thread TID N times, 10 ms apart, as the
 * ptrace engine does (seize, interrupt, wait for the stop, registers, 64 KiB of stack, detach), waiting for the stop
 * in waitpid (0) or by polling it (1), and prints the p50/p90 from the interrupt to the stop and to the release.
 * gcc -O2 -o /tmp/floor examples/scripts/ptrace-stop-floor.c && /tmp/floor TID 300 0
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: floor TID COUNT POLL(0|1)\n");
        return 2;
    }
    int tid = atoi(argv[1]), n = atoi(argv[2]), poll = atoi(argv[3]);
    long *stop = malloc(sizeof(long) * n), *release = malloc(sizeof(long) * n);
    static char copy[65536];
    for (int i = 0; i < n; i++) {
        if (ptrace(PTRACE_SEIZE, tid, 0, 0) != 0) {
            perror("PTRACE_SEIZE");
            return 1;
        }
        long start = now();
        ptrace(PTRACE_INTERRUPT, tid, 0, 0);
        int status;
        if (poll) {
            while (waitpid(tid, &status, __WALL | WNOHANG) != tid) {
            }
        } else {
            waitpid(tid, &status, __WALL);
        }
        stop[i] = now() - start;
        struct user_regs_struct regs;
        ptrace(PTRACE_GETREGS, tid, 0, &regs);
        struct iovec local = {copy, sizeof copy}, remote = {(void *) regs.rsp, sizeof copy};
        process_vm_readv(tid, &local, 1, &remote, 1, 0);
        ptrace(PTRACE_DETACH, tid, 0, 0);
        release[i] = now() - start;
        usleep(10000);
    }
    qsort(stop, n, sizeof(long), compare);
    qsort(release, n, sizeof(long), compare);
    printf("interrupt to stop: %ld us p50, %ld us p90; to release: %ld us p50, %ld us p90\n", stop[n / 2] / 1000,
           stop[n * 9 / 10] / 1000, release[n / 2] / 1000, release[n * 9 / 10] / 1000);
    return 0;
}
