/*
 * Starting one of mixflame's own native threads (the rings' relay, the code cache's keeper) with every signal
 * blocked: the profiler's timer signals and the application's go to threads that run code, never to these.
 */
#ifndef MIXFLAME_QUIET_THREAD_H
#define MIXFLAME_QUIET_THREAD_H

#include <pthread.h>
#include <signal.h>

/* pthread_create's result; the calling thread's signal mask is as it was either way. */
static inline int mixflame_start_quiet_thread(pthread_t *thread, void *(*body)(void *), void *argument) {
    sigset_t all;
    sigset_t before;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &before);
    int error = pthread_create(thread, NULL, body, argument);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    return error;
}

#endif
