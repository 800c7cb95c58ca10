/* Starts one thread that calls down the chain app -> libmfb -> libmfa and blocks there. */
#include <pthread.h>
#include <stdio.h>

extern int lib_b_outer(int n);

__attribute__((noinline)) static int app_level2(int n) { return lib_b_outer(n) + 1; }

__attribute__((noinline)) int app_level1(int n) { return app_level2(n + 7) + 1; }

static void *worker(void *arg) {
    (void) arg;
    app_level1(1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    printf("ready\n");
    fflush(stdout);
    pthread_join(t, 0);
    return 0;
}
