/*
 * A thread that runs a signal handler on an alternate signal stack and blocks inside it: its stack is the handler's
 * frames on the alternate stack, the kernel's signal frame, and the interrupted code on the thread's own stack.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile int handled;

__attribute__((noinline)) static void handler_blocks(void) {
    struct timespec ts = {100000, 0};
    handled = 1;
    nanosleep(&ts, 0);
}

__attribute__((noinline)) static void on_signal(int sig) {
    (void) sig;
    handler_blocks();
}

__attribute__((noinline)) static long interrupted_work(long n) {
    volatile long acc = 0;
    for (long i = 0; !handled || i < n; i++) {
        acc += i;
    }
    return acc;
}

__attribute__((noinline)) static void *worker(void *arg) {
    (void) arg;
    stack_t ss;
    ss.ss_sp = malloc(SIGSTKSZ * 4);
    ss.ss_size = SIGSTKSZ * 4;
    ss.ss_flags = 0;
    sigaltstack(&ss, 0);
    interrupted_work(1000);
    return 0;
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR1, &sa, 0);
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    usleep(200000);
    pthread_kill(t, SIGUSR1);
    while (!handled) {
        usleep(1000);
    }
    printf("ready\n");
    fflush(stdout);
    pthread_join(t, 0);
    return 0;
}
