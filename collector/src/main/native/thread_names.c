/*
 * Threads' names told by the JVM as they start and end (Linux, the profiler's own process): a JVM TI environment of
 * mixflame's own, with the ThreadStart and ThreadEnd events enabled and nothing else (no capability is asked for, so
 * the JIT and the collector run as they would without it). Each event runs on the thread that starts or ends, which
 * writes its id and its Java name into a bounded buffer here; the profiler takes them from there whenever one of its
 * threads gets to it.
 *
 * Why: a profiler thread that reads names stands still at every safepoint, and on a machine whose cores the
 * application keeps busy it can be seconds late; a thread that ended meanwhile has left the JVM's list, and its
 * samples would carry the kernel's 15 bytes. The thread itself is never late for its own start or end.
 *
 * The thread tells its stack's bounds as it starts too (glibc's attributes of the running thread): samples taken
 * of it are walked within them even when it has ended, its stack unmapped, by the time a late walk comes, or when
 * it started after the last read of the process's maps and ended before the next.
 *
 * The buffer holds records of a 24-byte header (thread id, name length, kind, the stack's low and high ends: 0 at
 * the end, or where not known) and the name's bytes (the JVM's modified UTF-8) padded to 8; a record that does not
 * fit is counted as dropped, and the profiler then reads the JVM's list as before. A mutex guards it: events and the
 * reader hold it for a copy only, and neither calls into the JVM while holding it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define HEADER_BYTES 24
/* Longer names are cut here, at a character's start. */
#define NAME_MAX_BYTES 1024
#define KIND_START 1
#define KIND_END 2

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static jvmtiEnv *jvmti;
static char *buffer;
static uint32_t capacity;
static uint32_t used;
static uint64_t written;
static uint64_t dropped;
static volatile int enabled;

static void note(jvmtiEnv *env, jthread thread, uint8_t kind) {
    if (!__atomic_load_n(&enabled, __ATOMIC_ACQUIRE)) {
        return;
    }
    jvmtiThreadInfo info;
    memset(&info, 0, sizeof(info));
    if ((*env)->GetThreadInfo(env, thread, &info) != JVMTI_ERROR_NONE || info.name == NULL) {
        return;
    }
    size_t length = strlen(info.name);
    if (length > NAME_MAX_BYTES) {
        length = NAME_MAX_BYTES;
        /* Back to the start of a character: continuation bytes are 10xxxxxx. */
        while (length > 0 && ((unsigned char) info.name[length] & 0xc0) == 0x80) {
            length--;
        }
    }
    uint32_t tid = (uint32_t) syscall(SYS_gettid);
    uint64_t stack[2] = {0, 0};
    pthread_attr_t attributes;
    if (kind == KIND_START && pthread_getattr_np(pthread_self(), &attributes) == 0) {
        void *low = NULL;
        size_t size = 0;
        if (pthread_attr_getstack(&attributes, &low, &size) == 0 && low != NULL && size > 0) {
            stack[0] = (uint64_t) (uintptr_t) low;
            stack[1] = (uint64_t) (uintptr_t) low + size;
        }
        pthread_attr_destroy(&attributes);
    }
    uint32_t bytes = (uint32_t) (HEADER_BYTES + ((length + 7) & ~(size_t) 7));
    pthread_mutex_lock(&lock);
    if (buffer != NULL && capacity - used >= bytes) {
        char *at = buffer + used;
        uint16_t length16 = (uint16_t) length;
        memcpy(at, &tid, 4);
        memcpy(at + 4, &length16, 2);
        at[6] = (char) kind;
        at[7] = 0;
        memcpy(at + 8, stack, sizeof stack);
        memcpy(at + HEADER_BYTES, info.name, length);
        memset(at + HEADER_BYTES + length, 0, bytes - HEADER_BYTES - length);
        used += bytes;
        written++;
    } else {
        dropped++;
    }
    pthread_mutex_unlock(&lock);
    (*env)->Deallocate(env, (unsigned char *) info.name);
    /* The thread group and context class loader are local references, freed as the event returns. */
}

static void JNICALL thread_started(jvmtiEnv *env, JNIEnv *jni, jthread thread) {
    (void) jni;
    note(env, thread, KIND_START);
}

static void JNICALL thread_ended(jvmtiEnv *env, JNIEnv *jni, jthread thread) {
    (void) jni;
    note(env, thread, KIND_END);
}

/*
 * Makes the environment and its buffer of `bytes`, once per process, from the calling Java thread's JNI environment
 * (the JVM's own, passed by JNA): the JavaVM is had from it even while the JVM is still being created, as it is when
 * a -javaagent's premain runs (JNI_GetCreatedJavaVMs counts no JVM then). Returns 0, or a negative error: -errno, or
 * -1000 - the JNI or JVM TI error.
 */
EXPORT int mixflame_names_install(JNIEnv *jni, int32_t bytes) {
    if (bytes < 4096 || jni == NULL) {
        return -EINVAL;
    }
    pthread_mutex_lock(&lock);
    int result = 0;
    if (jvmti == NULL) {
        JavaVM *vm = NULL;
        jvmtiEnv *env = NULL;
        jint error;
        if ((error = (*jni)->GetJavaVM(jni, &vm)) != JNI_OK) {
            result = -1000 + error;
        } else if ((error = (*vm)->GetEnv(vm, (void **) &env, JVMTI_VERSION_1_2)) != JNI_OK) {
            result = -1000 + error;
        } else {
            jvmtiEventCallbacks callbacks;
            memset(&callbacks, 0, sizeof(callbacks));
            callbacks.ThreadStart = thread_started;
            callbacks.ThreadEnd = thread_ended;
            jvmtiError set = (*env)->SetEventCallbacks(env, &callbacks, (jint) sizeof(callbacks));
            if (set != JVMTI_ERROR_NONE) {
                (*env)->DisposeEnvironment(env);
                result = -1000 - (int) set;
            } else {
                jvmti = env;
            }
        }
    }
    if (result == 0 && buffer == NULL) {
        buffer = malloc((size_t) bytes);
        if (buffer == NULL) {
            result = -ENOMEM;
        } else {
            capacity = (uint32_t) bytes;
            used = 0;
        }
    }
    pthread_mutex_unlock(&lock);
    return result;
}

/* Turns the events on (1) or off (0); the environment stays for a later profile. Returns 0 or -1000 - the error. */
EXPORT int mixflame_names_enable(int32_t on) {
    if (jvmti == NULL) {
        return -ENOENT;
    }
    __atomic_store_n(&enabled, on ? 1 : 0, __ATOMIC_RELEASE);
    jvmtiEventMode mode = on ? JVMTI_ENABLE : JVMTI_DISABLE;
    jvmtiError error = (*jvmti)->SetEventNotificationMode(jvmti, mode, JVMTI_EVENT_THREAD_START, NULL);
    if (error == JVMTI_ERROR_NONE) {
        error = (*jvmti)->SetEventNotificationMode(jvmti, mode, JVMTI_EVENT_THREAD_END, NULL);
    }
    if (!on) {
        pthread_mutex_lock(&lock);
        used = 0;
        pthread_mutex_unlock(&lock);
    }
    return error == JVMTI_ERROR_NONE ? 0 : -1000 - (int) error;
}

/*
 * Moves whole records, oldest first, into out (at most size bytes) and out of the buffer. Returns the bytes moved:
 * 0 when there were none, or when out is too small for the oldest one (never, for a size of at least
 * 24 + 1024 bytes).
 */
EXPORT int32_t mixflame_names_take(char *out, int32_t size) {
    pthread_mutex_lock(&lock);
    uint32_t taken = 0;
    while (taken < used) {
        uint16_t length;
        memcpy(&length, buffer + taken + 4, 2);
        uint32_t bytes = (uint32_t) (HEADER_BYTES + ((length + 7u) & ~7u));
        if (taken + bytes > (uint32_t) size) {
            break;
        }
        taken += bytes;
    }
    if (taken > 0) {
        memcpy(out, buffer, taken);
        memmove(buffer, buffer + taken, used - taken);
        used -= taken;
    }
    pthread_mutex_unlock(&lock);
    return (int32_t) taken;
}

/* Records written so far (0), and (1) those that did not fit. */
EXPORT int64_t mixflame_names_count(int32_t which) {
    pthread_mutex_lock(&lock);
    uint64_t count = which == 0 ? written : dropped;
    pthread_mutex_unlock(&lock);
    return (int64_t) count;
}
