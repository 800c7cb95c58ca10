// C++ in a namespace, with frame pointers: the innermost functions of the chain, blocking in nanosleep.
#include <time.h>

namespace mixtest {
struct Walker {
    static int deepest(int n);
    int step(int n);
};

__attribute__((noinline)) int Walker::deepest(int n) {
    struct timespec ts = {100000, 0};
    nanosleep(&ts, 0);
    return n;
}

__attribute__((noinline)) int Walker::step(int n) {
    int r = deepest(n + 1);
    return r + 1;
}
}  // namespace mixtest

extern "C" __attribute__((noinline)) int lib_a_entry(int n) {
    mixtest::Walker w;
    return w.step(n) * 2;
}
