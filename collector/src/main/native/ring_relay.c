/*
 * The perf rings' relay (Linux): a native thread that moves the records the kernel writes into the per-CPU perf rings
 * on to larger rings of ordinary memory, which the profiler's Java threads read at their pace. Java threads stop at
 * every safepoint, and on a machine with many more runnable threads than cores the JVM takes seconds to reach one;
 * this thread belongs to no JVM, does a copy of what is new every few milliseconds, and so gets a core soon after each
 * wake-up. The kernel's rings are locked memory, which the user's allowance makes small; the relay's are not.
 *
 * Both sides use perf's own layout (a metadata page with data_head, data_tail, data_offset and data_size, then the
 * data), so the reader reads a relay ring as it would read the kernel's. Records are moved whole, in order; a relay
 * ring that is full takes no more, and the kernel's ring then fills and the kernel counts what it could not write as
 * lost, as it would without the relay. A relay ring that the reader has emptied sends its writer back to its start
 * once the writer is past its first megabyte (or half the ring): while the reader keeps up, the records go into the
 * same few pages, already resident, and the rest of the ring is touched only when records wait (a record written
 * into a page not yet touched cost a page fault per page, and giving pages back made every page a new one). Pages
 * past that start that the reader has consumed are given back to the system when a megabyte of them has gathered,
 * so that after records waited the resident size follows what waits, not the ring's length.
 *
 * Only the relay thread moves records. A reader asks it for a pass; one that wants the records up to this moment (the
 * wall clock's threads' states at its tick) also waits for the pass, a bounded time. Were a reader to move them
 * itself, a Java thread that the scheduler preempts mid-move, on a machine with hundreds of runnable threads, would
 * hold the ring for as long as the scheduler keeps it off a core, and the kernel's ring would overflow meanwhile.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "quiet_thread.h"

#define EXPORT __attribute__((visibility("default")))
#define DATA_HEAD 1024
#define DATA_TAIL 1032
#define DATA_OFFSET 1040
#define DATA_SIZE 1048
#define HEADER_BYTES 8
#define RELEASE_BYTES (1u << 20)
#define REWIND_BYTES (1u << 20)
/* Passes between two reads of the relay thread's CPU time (about a second at 5 ms). */
#define CPU_READ_PASSES 200

struct relay_ring {
    char *source;
    uint64_t source_size;
    char *source_data;
    char *target;
    uint64_t target_size;
    char *target_data;
    /* Up to where the target's consumed pages were given back, counted like its tail. */
    uint64_t released;
};

struct relay {
    pthread_t thread;
    volatile int stop;
    int started;
    int count;
    uint64_t page;
    uint64_t period_nanos;
    uint64_t moved;
    uint64_t full;
    /* The longest time between the starts of two passes, and the most bytes a kernel ring held at a pass's start:
     * how long the relay went without a core, and how near the kernel came to losing records meanwhile. */
    uint64_t longest_pause;
    uint64_t most_waiting;
    uint64_t last_pass;
    /* Bytes moved; the relay thread's CPU time (its cost, for the note), read every CPU_READ_PASSES and at its end. */
    uint64_t bytes;
    uint64_t cpu_nanos;
    /*
     * When the last pass that moved everything began (CLOCK_MONOTONIC, the rings' clock): every record the kernel
     * wrote before then is in the relay rings. A pass that found a relay ring full leaves it where it was.
     */
    uint64_t passed_at;
    /* Futex words: passes asked for by readers, passes begun, passes done (the relay thread's count). */
    uint32_t asked;
    uint32_t begun;
    uint32_t done;
    struct relay_ring rings[];
};

static void copy_out(const char *data, uint64_t size, uint64_t at, char *to, uint64_t length) {
    uint64_t offset = at & (size - 1);
    uint64_t first = size - offset < length ? size - offset : length;
    memcpy(to, data + offset, first);
    memcpy(to + first, data, length - first);
}

static void copy_in(char *data, uint64_t size, uint64_t at, const char *from, uint64_t length) {
    uint64_t offset = at & (size - 1);
    uint64_t first = size - offset < length ? size - offset : length;
    memcpy(data + offset, from, first);
    memcpy(data, from + first, length - first);
}

/* Where an emptied ring starts again: its first megabyte, or half of a smaller ring. */
static uint64_t rewind_at(const struct relay_ring *r) {
    return r->target_size / 2 < REWIND_BYTES ? r->target_size / 2 : REWIND_BYTES;
}

/*
 * Sends the writer back to the ring's start when the reader has consumed everything and the writer is past
 * rewind_at: the rest of the lap is skipped by moving both the tail and the head over it. Only the relay thread writes
 * the head; the reader stores the tail only at the end of a read, with the head it loaded at the read's start, so
 * once tail equals head no read is in flight that could store an older tail. The tail is stored
 * first: a reader that loads the new head (acquire) then sees the new tail, and one that loads the old head finds
 * nothing to read.
 */
static void rewind_if_empty(struct relay_ring *r) {
    uint64_t head = *(uint64_t *) (r->target + DATA_HEAD);
    uint64_t tail = __atomic_load_n((uint64_t *) (r->target + DATA_TAIL), __ATOMIC_ACQUIRE);
    uint64_t offset = head & (r->target_size - 1);
    if (tail != head || offset < rewind_at(r)) {
        return;
    }
    uint64_t rest = r->target_size - offset;
    __atomic_store_n((uint64_t *) (r->target + DATA_TAIL), tail + rest, __ATOMIC_RELEASE);
    __atomic_store_n((uint64_t *) (r->target + DATA_HEAD), head + rest, __ATOMIC_RELEASE);
}

/*
 * Gives back the target's pages that lie wholly below the reader's tail, a megabyte or more at a time: only those
 * whose place in the ring no live record holds (a position below head minus the ring's size is now written over),
 * and none in the ring's first rewind_at bytes, where an emptied ring starts again.
 */
static void release_consumed(struct relay_ring *r, uint64_t page, uint64_t tail, uint64_t head) {
    uint64_t from = (r->released + page - 1) & ~(page - 1);
    uint64_t overwritten = head > r->target_size ? head - r->target_size : 0;
    if (from < overwritten) {
        from = (overwritten + page - 1) & ~(page - 1);
    }
    uint64_t to = tail & ~(page - 1);
    if (to <= from || to - from < RELEASE_BYTES) {
        return;
    }
    uint64_t keep = (rewind_at(r) + page - 1) & ~(page - 1);
    for (uint64_t at = from; at < to;) {
        uint64_t offset = at & (r->target_size - 1);
        uint64_t length = r->target_size - offset < to - at ? r->target_size - offset : to - at;
        if (offset + length > keep) {
            uint64_t skip = offset < keep ? keep - offset : 0;
            madvise(r->target_data + offset + skip, length - skip, MADV_DONTNEED);
        }
        at += length;
    }
    r->released = to;
}

/* Moves the complete records of one ring; the number moved. */
static uint64_t relay_one(struct relay *relay, struct relay_ring *r) {
    rewind_if_empty(r);
    uint64_t head = __atomic_load_n((uint64_t *) (r->source + DATA_HEAD), __ATOMIC_ACQUIRE);
    uint64_t tail = *(uint64_t *) (r->source + DATA_TAIL);
    if (head - tail > relay->most_waiting) {
        __atomic_store_n(&relay->most_waiting, head - tail, __ATOMIC_RELAXED);
    }
    uint64_t target_head = *(uint64_t *) (r->target + DATA_HEAD);
    uint64_t target_tail = __atomic_load_n((uint64_t *) (r->target + DATA_TAIL), __ATOMIC_ACQUIRE);
    release_consumed(r, relay->page, target_tail, target_head);
    uint64_t moved = 0;
    while (tail < head) {
        char header[HEADER_BYTES];
        copy_out(r->source_data, r->source_size, tail, header, HEADER_BYTES);
        uint16_t length;
        memcpy(&length, header + 6, sizeof length);
        if (length < HEADER_BYTES || tail + length > head) {
            tail = head; /* a torn or corrupt record: skipped with all written so far */
            break;
        }
        if (target_head + length - target_tail > r->target_size) {
            __atomic_fetch_add(&relay->full, 1, __ATOMIC_RELAXED);
            break;
        }
        uint64_t offset = tail & (r->source_size - 1);
        if (offset + length <= r->source_size) {
            copy_in(r->target_data, r->target_size, target_head, r->source_data + offset, length);
        } else {
            char record[65536];
            copy_out(r->source_data, r->source_size, tail, record, length);
            copy_in(r->target_data, r->target_size, target_head, record, length);
        }
        tail += length;
        target_head += length;
        moved++;
        relay->bytes += length;
    }
    __atomic_store_n((uint64_t *) (r->target + DATA_HEAD), target_head, __ATOMIC_RELEASE);
    __atomic_store_n((uint64_t *) (r->source + DATA_TAIL), tail, __ATOMIC_RELEASE);
    return moved;
}

static long futex(uint32_t *word, int op, uint32_t value, const struct timespec *timeout) {
    return syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, value, timeout, NULL, 0);
}

static uint64_t monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t) now.tv_sec * 1000000000ULL + (uint64_t) now.tv_nsec;
}

/* The calling thread's CPU time in nanoseconds (a system call: no vDSO for this clock). */
static uint64_t own_cpu_nanos(void) {
    struct timespec t;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0
           ? (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec : 0;
}

/* One pass over every ring, counted as begun before it reads a ring and as done after, waking readers that wait. */
static void relay_pass(struct relay *relay) {
    uint32_t pass = __atomic_add_fetch(&relay->begun, 1, __ATOMIC_ACQ_REL);
    uint64_t now = monotonic_nanos();
    if (relay->last_pass != 0 && now - relay->last_pass > relay->longest_pause) {
        __atomic_store_n(&relay->longest_pause, now - relay->last_pass, __ATOMIC_RELAXED);
    }
    relay->last_pass = now;
    uint64_t moved = 0;
    uint64_t full = relay->full;
    for (int i = 0; i < relay->count; i++) {
        moved += relay_one(relay, &relay->rings[i]);
    }
    __atomic_fetch_add(&relay->moved, moved, __ATOMIC_RELAXED);
    if (relay->full == full) {
        __atomic_store_n(&relay->passed_at, now, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&relay->done, pass, __ATOMIC_RELEASE);
    futex(&relay->done, FUTEX_WAKE, INT32_MAX, NULL);
}

static void *run(void *argument) {
    struct relay *relay = argument;
    struct timespec pause = {(time_t) (relay->period_nanos / 1000000000ULL),
                             (long) (relay->period_nanos % 1000000000ULL)};
    for (uint32_t passes = 1; !__atomic_load_n(&relay->stop, __ATOMIC_ACQUIRE); passes++) {
        uint32_t asked = __atomic_load_n(&relay->asked, __ATOMIC_ACQUIRE);
        relay_pass(relay);
        if (passes % CPU_READ_PASSES == 0) {
            __atomic_store_n(&relay->cpu_nanos, own_cpu_nanos(), __ATOMIC_RELAXED);
        }
        /* Until the period is up, or a reader asks for a pass (asked moves on, and the wait ends at once). */
        futex(&relay->asked, FUTEX_WAIT, asked, &pause);
    }
    /* What is left moves once more, so that a stop loses nothing the relay rings have room for. */
    relay_pass(relay);
    __atomic_store_n(&relay->cpu_nanos, own_cpu_nanos(), __ATOMIC_RELAXED);
    return NULL;
}

static void unmap_targets(struct relay *relay) {
    for (int i = 0; i < relay->count; i++) {
        if (relay->rings[i].target != NULL) {
            munmap(relay->rings[i].target, relay->page + relay->rings[i].target_size);
        }
    }
}

/*
 * Starts a relay of `count` perf rings, ring i mapped at sources[i] with source_sizes[i] data bytes after a metadata
 * page of `page` bytes, each onto a ring of `target_size` data bytes (a power of two) of ordinary memory, every
 * `period_nanos`. Returns the relay's handle, or -errno.
 */
EXPORT int64_t mixflame_relay_start(int count, const int64_t *sources, const int64_t *source_sizes, int64_t page,
                                    int64_t target_size, int64_t period_nanos) {
    if (count <= 0 || page <= 0 || (page & (page - 1)) != 0 || target_size < page
            || (target_size & (target_size - 1)) != 0 || period_nanos <= 0) {
        return -EINVAL;
    }
    struct relay *relay = calloc(1, sizeof(struct relay) + (size_t) count * sizeof(struct relay_ring));
    if (relay == NULL) {
        return -ENOMEM;
    }
    relay->count = count;
    relay->page = (uint64_t) page;
    relay->period_nanos = (uint64_t) period_nanos;
    for (int i = 0; i < count; i++) {
        struct relay_ring *r = &relay->rings[i];
        r->source = (char *) (uintptr_t) sources[i];
        r->source_size = (uint64_t) source_sizes[i];
        uint64_t offset = *(uint64_t *) (r->source + DATA_OFFSET);
        r->source_data = r->source + (offset != 0 ? offset : (uint64_t) page);
        void *memory = mmap(NULL, (size_t) (page + target_size), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED || r->source_size == 0 || (r->source_size & (r->source_size - 1)) != 0) {
            int error = memory == MAP_FAILED ? errno : EINVAL;
            if (memory != MAP_FAILED) {
                munmap(memory, (size_t) (page + target_size));
            }
            unmap_targets(relay);
            free(relay);
            return -error;
        }
        r->target = memory;
        r->target_size = (uint64_t) target_size;
        r->target_data = r->target + page;
        *(uint64_t *) (r->target + DATA_OFFSET) = (uint64_t) page;
        *(uint64_t *) (r->target + DATA_SIZE) = (uint64_t) target_size;
    }
    int error = mixflame_start_quiet_thread(&relay->thread, "mixflame-relay", run, relay);
    if (error != 0) {
        unmap_targets(relay);
        free(relay);
        return -error;
    }
    relay->started = 1;
    return (int64_t) (uintptr_t) relay;
}

/* The metadata page of relay ring i, in perf's layout. */
EXPORT int64_t mixflame_relay_ring(int64_t handle, int i) {
    struct relay *relay = (struct relay *) (uintptr_t) handle;
    return i < 0 || i >= relay->count ? 0 : (int64_t) (uintptr_t) relay->rings[i].target;
}

/*
 * Asks the relay thread for a pass now, and waits until a pass begun after the ask is done, or wait_nanos went by (a
 * reader that wants the records up to this moment: the wall clock's threads' states at its tick). The reader never
 * moves records itself. Returns 1 when the pass was done in time, 0 when not (or the relay stopped).
 */
EXPORT int mixflame_relay_flush(int64_t handle, int64_t wait_nanos) {
    struct relay *relay = (struct relay *) (uintptr_t) handle;
    if (!relay->started || __atomic_load_n(&relay->stop, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    uint32_t after = __atomic_load_n(&relay->begun, __ATOMIC_ACQUIRE) + 1;
    __atomic_fetch_add(&relay->asked, 1, __ATOMIC_ACQ_REL);
    futex(&relay->asked, FUTEX_WAKE, 1, NULL);
    uint64_t deadline = monotonic_nanos() + (uint64_t) (wait_nanos > 0 ? wait_nanos : 0);
    while (1) {
        uint32_t done = __atomic_load_n(&relay->done, __ATOMIC_ACQUIRE);
        if ((int32_t) (done - after) >= 0) {
            return 1;
        }
        uint64_t now = monotonic_nanos();
        if (now >= deadline || __atomic_load_n(&relay->stop, __ATOMIC_ACQUIRE)) {
            return 0;
        }
        uint64_t left = deadline - now;
        struct timespec timeout = {(time_t) (left / 1000000000ULL), (long) (left % 1000000000ULL)};
        futex(&relay->done, FUTEX_WAIT, done, &timeout);
    }
}

/*
 * Records moved so far (0), the times a relay ring was found full (1), the longest time between two passes' starts in
 * nanoseconds (2), the most bytes a kernel ring held at a pass's start (3), bytes moved (4), the relay thread's CPU
 * time in nanoseconds (5), and when the last pass that moved everything began (6, CLOCK_MONOTONIC; 0 before one).
 */
EXPORT int64_t mixflame_relay_count(int64_t handle, int which) {
    struct relay *relay = (struct relay *) (uintptr_t) handle;
    uint64_t *counts[] = {&relay->moved, &relay->full, &relay->longest_pause, &relay->most_waiting, &relay->bytes,
                          &relay->cpu_nanos, &relay->passed_at};
    if (which < 0 || which > 6) {
        return 0;
    }
    return (int64_t) (which == 6 ? __atomic_load_n(counts[which], __ATOMIC_ACQUIRE)
                                 : __atomic_load_n(counts[which], __ATOMIC_RELAXED));
}

/* Stops the relay's thread, once it moved what it could; the relay rings stay mapped until freed. */
EXPORT int mixflame_relay_stop(int64_t handle) {
    struct relay *relay = (struct relay *) (uintptr_t) handle;
    if (!relay->started) {
        return 0;
    }
    __atomic_store_n(&relay->stop, 1, __ATOMIC_RELEASE);
    int error = pthread_join(relay->thread, NULL);
    relay->started = 0;
    return -error;
}

/* Unmaps the relay rings and frees the relay, which must have stopped. */
EXPORT int mixflame_relay_free(int64_t handle) {
    struct relay *relay = (struct relay *) (uintptr_t) handle;
    if (relay->started) {
        return -EBUSY;
    }
    unmap_targets(relay);
    free(relay);
    return 0;
}
