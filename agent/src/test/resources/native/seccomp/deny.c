/*
 * Runs a command under a seccomp filter that refuses the system calls named, with EACCES, as a container's default
 * seccomp profile refuses perf_event_open: deny perf_event_open[,ptrace,timer_create,process_vm_readv] -- COMMAND
 * ARGS...
 * The filter is inherited by every process the command starts.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#else
#error "x86-64 or aarch64 only"
#endif

int main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[2], "--") != 0) {
        fprintf(stderr, "usage: deny perf_event_open[,ptrace] -- COMMAND ARGS...\n");
        return 2;
    }
    struct sock_filter f[16];
    int k = 0;
    f[k++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    f[k++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
    f[k++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    f[k++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    char list[256];
    snprintf(list, sizeof list, "%s", argv[1]);
    for (char *name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
        long nr;
        if (strcmp(name, "perf_event_open") == 0) {
            nr = __NR_perf_event_open;
        } else if (strcmp(name, "ptrace") == 0) {
            nr = __NR_ptrace;
        } else if (strcmp(name, "timer_create") == 0) {
            nr = __NR_timer_create;
        } else if (strcmp(name, "process_vm_readv") == 0) {
            nr = __NR_process_vm_readv;
        } else {
            fprintf(stderr, "deny: unknown system call %s\n", name);
            return 2;
        }
        if (k > 12) {
            fprintf(stderr, "deny: too many system calls\n");
            return 2;
        }
        f[k++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
        f[k++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA));
    }
    f[k++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {.len = (unsigned short) k, .filter = f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        perror("deny: seccomp");
        return 1;
    }
    /* DENY_BLOCK_SIGNAL=N: the command starts with signal N blocked, and so do the threads it creates. */
    const char *block = getenv("DENY_BLOCK_SIGNAL");
    if (block != NULL && *block != 0) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, atoi(block));
        if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) {
            perror("deny: sigprocmask");
            return 1;
        }
    }
    execvp(argv[3], argv + 3);
    perror("deny: exec");
    return 127;
}
