/*
 * Holds PAGES pages of the calling user's perf locked memory until its standard input closes: perf ring buffers of
 * its own thread's events, each 2^k + 1 pages, mapped until they add up. The kernel charges them to the user, as it
 * does a profiler's. Prints "held N" once mapped, or "failed" and exits 1.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
    long left = argc > 1 ? atol(argv[1]) : 0;
    long page = sysconf(_SC_PAGESIZE);
    long held = 0;
    while (left >= 2) {
        long data = 1;
        while (data * 2 + 1 <= left) {
            data *= 2;
        }
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_SOFTWARE;
        a.config = PERF_COUNT_SW_DUMMY;
        a.disabled = 1;
        a.exclude_kernel = 1;
        int fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
        if (fd < 0 || mmap(NULL, (data + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED) {
            printf("failed\n");
            return 1;
        }
        held += data + 1;
        left -= data + 1;
    }
    printf("held %ld\n", held);
    fflush(stdout);
    char c;
    while (read(0, &c, 1) > 0) {
    }
    return 0;
}
