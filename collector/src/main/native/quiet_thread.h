/*
 * Starting one of mixflame's own native threads (the rings' relay, the code cache's keeper) with every signal
 * blocked: the profiler's timer signals and the application's go to threads that run code, never to these.
 */
#ifndef MIXFLAME_QUIET_THREAD_H
#define MIXFLAME_QUIET_THREAD_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <signal.h>

/*
 * pthread_create's result; the calling thread's signal mask is as it was either way. The thread is named (at most 15
 * characters) so that top, perf and /proc tell it from the thread that started it, whose name it would inherit.
 */
static inline int mixflame_start_quiet_thread(pthread_t *thread, const char *name, void *(*body)(void *),
                                              void *argument) {
    sigset_t all;
    sigset_t before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int error = pthread_create(thread, NULL, body, argument);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (error == 0) {
        pthread_setname_np(*thread, name);
    }
    return error;
}

#endif
