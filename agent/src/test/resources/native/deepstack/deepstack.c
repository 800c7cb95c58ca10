/*
 * A JNI library whose stack goes deeper than perf's default copy of 16 KiB, as a storage engine's flush does: a
 * recursion of 24 levels with frames of 0.75 to 2.5 KiB (about 40 KiB in all), each level's size picked at random at
 * every call and its memory filled with a pattern that is no address. The stack's layout then differs from call to
 * call, so that once a sample is taken, the stack above its copy no longer holds the frames the sample was taken in
 * (nor, by chance, another call's frames at the same places), and a walk that reads them there breaks.
 */
#include <alloca.h>
#include <jni.h>
#include <string.h>

#define LEVELS 24

/* The work at the bottom: about 30 microseconds, so that most samples find the whole depth on the stack. */
__attribute__((noinline)) static long deep_leaf(unsigned seed) {
    long acc = seed;
    for (int i = 0; i < 20000; i++) {
        acc = acc * 6364136223846793005L + 1442695040888963407L;
    }
    return acc;
}

__attribute__((noinline)) static long deep_level(int depth, unsigned seed) {
    if (depth == 0) {
        return deep_leaf(seed);
    }
    seed = seed * 1103515245u + 12345u;
    size_t size = 768 + (seed >> 8) % 1792;
    volatile unsigned char *frame = alloca(size);
    memset((void *) frame, 0xa5, size);
    /* Using the frame after the call keeps the call from being a jump that would drop this level. */
    long r = deep_level(depth - 1, seed);
    return r + frame[0] + frame[size - 1];
}

JNIEXPORT jlong JNICALL Java_io_mixflame_testapp_DeepNativeStackApp_descend(JNIEnv *env, jclass cls, jint seed) {
    /* Used after the call, so the call stays a call and this frame stays on the stack below Java. */
    return deep_level(LEVELS, (unsigned) seed) + 1;
}
