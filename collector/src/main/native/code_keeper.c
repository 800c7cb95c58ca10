/*
 * The code cache's keeper (Linux, the profiler's own process): a native thread that takes the census of the code heaps
 * (code_census.c) while samples wait to be walked, and writes what changed from one census to the next into a log
 * that the walker reads when it gets to those samples. The walker is a Java thread: it stands still at every
 * safepoint, and with hundreds of runnable threads it waits its turn for a core; the JIT frees and replaces code
 * meanwhile (the sweeper and the GC run at those very safepoints). A census the walker took when it came back would
 * find that code gone without ever having seen it. This thread belongs to no JVM and takes its censuses on time.
 *
 * It takes a census only while walks are late, and for a while after (late walks come in bursts: a GC's safepoints,
 * one after another), at most one every CENSUS_NANOS: a census reads every block's header. Walks are late when records
 * the keeper saw waiting in the watched rings (perf's layout: the relay's rings) a LAG_NANOS ago are still unread, or
 * when the sample the walker is at was taken LAG_NANOS or more ago (the walking word, which the walker sets to the
 * time of the sample it walks, 0 when it waits for more; the keeper's start until then: a walker that has not begun,
 * still reading symbol tables, is as late as one stuck at its first sample).
 *
 * The log is a ring of batches, one per census that changed something; positions count bytes from its start and only
 * grow. A batch is words: its kind and length, the census's time, the number of blobs gone and born, the rows after
 * it, and when a census last found the rows as the batch before left them (censuses that change nothing write no
 * batch); then the start of each blob gone, in address order; then each blob born, in address order: its row (start,
 * end, name, Method*, compile id), the length of the copy of its header that follows (compiled code found since the
 * previous census: what the walker needs to read it, before the JIT can free it), and the copy, padded to words. A
 * batch that would not fit before the log's end is put at its start, after a pad word. A census whose batch does not
 * fit is dropped and counted, and the next one is told against the same rows, so that the log's reader, applying every
 * batch in order, always holds the keeper's rows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "quiet_thread.h"

#define EXPORT __attribute__((visibility("default")))

extern int64_t mixflame_code_census(const uint64_t *heaps, int32_t heap_count, const uint64_t *layout, uint64_t *out,
                                    int64_t capacity, int32_t *incomplete);

#define ROW_WORDS 5
#define LAYOUT_WORDS 12
#define MAX_HEAPS 16
#define MAX_WATCHED 4096
#define FIRST_ROWS 4096
#define MAX_ROWS (1 << 17)
#define MAX_HEADER 4096
#define DATA_HEAD 1024
#define DATA_TAIL 1032
#define TICK_NANOS 10000000ULL
#define CENSUS_NANOS 100000000ULL
#define LAG_NANOS 100000000ULL
#define HOLD_NANOS 2000000000ULL
#define KIND_BATCH 1ULL
#define KIND_PAD 2ULL
#define BATCH_WORDS 6

struct watched {
    const char *page;
    uint64_t mark_head;
    uint64_t mark_time;
};

struct keeper {
    pthread_t thread;
    int started;
    int stop;
    uint64_t heaps[MAX_HEAPS];
    int32_t heap_count;
    uint64_t layout[LAYOUT_WORDS];
    uint64_t header_bytes;
    /* The walker's word: the time of the sample it walks; 0 while it waits for samples. */
    uint64_t walking;
    /* Rows of the last census written to the log, and the census being taken. */
    uint64_t *rows;
    int64_t row_count;
    uint64_t *next;
    int64_t capacity;
    int first_written;
    uint64_t last_census;
    uint64_t last_late;
    /* When a census last found the written rows as they are (the last batch's time, or a later census's). */
    uint64_t same_at;
    /* The log, and its positions: head written by the keeper, tail by the reader. */
    char *log;
    uint64_t log_size;
    uint64_t head;
    uint64_t tail;
    /* Counts: censuses taken, cut short, dropped (log full or too large). */
    uint64_t censuses;
    uint64_t cut_short;
    uint64_t dropped;
    int watched_count;
    struct watched watched[];
};

static uint64_t monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t) now.tv_sec * 1000000000ULL + (uint64_t) now.tv_nsec;
}

static uint64_t words_for(uint64_t bytes) {
    return (bytes + 7) / 8;
}

/* Whether samples have waited LAG_NANOS or more: in the watched rings, or at the walker. */
static int walks_late(struct keeper *k, uint64_t now) {
    int late = 0;
    for (int i = 0; i < k->watched_count; i++) {
        struct watched *w = &k->watched[i];
        uint64_t head = __atomic_load_n((const uint64_t *) (w->page + DATA_HEAD), __ATOMIC_ACQUIRE);
        uint64_t tail = __atomic_load_n((const uint64_t *) (w->page + DATA_TAIL), __ATOMIC_ACQUIRE);
        if (tail >= w->mark_head) {
            /* What was waiting at the mark has been read: mark what waits now. */
            w->mark_head = head;
            w->mark_time = now;
        } else if (now - w->mark_time >= LAG_NANOS) {
            late = 1;
        }
    }
    /* A walker stuck at one sample is late by that sample's age too: the age alone tells. */
    uint64_t walking = __atomic_load_n(&k->walking, __ATOMIC_ACQUIRE);
    if (walking != 0 && now > walking && now - walking >= LAG_NANOS) {
        late = 1;
    }
    return late;
}

/* Takes a census into next; its rows, or -1 when it was cut short or would need more than MAX_ROWS. */
static int64_t take(struct keeper *k) {
    int32_t incomplete = 0;
    int64_t n = mixflame_code_census(k->heaps, k->heap_count, k->layout, k->next, k->capacity, &incomplete);
    if (n < 0) {
        int64_t needed = -n - 1;
        if (needed > MAX_ROWS) {
            return -1;
        }
        int64_t grown = needed + needed / 4 > k->capacity * 2 ? needed + needed / 4 : k->capacity * 2;
        grown = grown > MAX_ROWS ? MAX_ROWS : grown;
        uint64_t *rows = realloc(k->rows, (size_t) grown * ROW_WORDS * 8);
        if (rows == NULL) {
            return -1;
        }
        k->rows = rows;
        uint64_t *next = realloc(k->next, (size_t) grown * ROW_WORDS * 8);
        if (next == NULL) {
            return -1;
        }
        k->next = next;
        k->capacity = grown;
        n = mixflame_code_census(k->heaps, k->heap_count, k->layout, k->next, k->capacity, &incomplete);
    }
    return n < 0 || incomplete != 0 ? -1 : n;
}

static int same_row(const uint64_t *a, const uint64_t *b) {
    return memcmp(a, b, ROW_WORDS * 8) == 0;
}

/* Whether a born blob's header is copied: compiled code, found after the first census written. */
static uint64_t header_copy(const struct keeper *k, const uint64_t *row) {
    if (!k->first_written || row[3] == 0 || row[1] - row[0] < k->header_bytes) {
        return 0;
    }
    return k->header_bytes;
}

/*
 * Walks the difference between the written rows and the census of n rows: with out NULL, counts the batch's words
 * into *words and returns whether anything changed; else writes the batch's body (after its first BATCH_WORDS) at out.
 */
static int difference(const struct keeper *k, int64_t n, uint64_t *out, uint64_t *gone, uint64_t *born,
                      uint64_t *words) {
    uint64_t g = 0;
    uint64_t b = 0;
    uint64_t w = 0;
    /* Gone first, then born: two passes of the same merge. */
    for (int pass = 0; pass < 2; pass++) {
        int64_t i = 0;
        int64_t j = 0;
        while (i < k->row_count || j < n) {
            const uint64_t *old = i < k->row_count ? k->rows + i * ROW_WORDS : NULL;
            const uint64_t *row = j < n ? k->next + j * ROW_WORDS : NULL;
            int old_gone = 0;
            int row_born = 0;
            if (old != NULL && (row == NULL || old[0] < row[0])) {
                old_gone = 1;
                i++;
            } else if (old != NULL && old[0] == row[0]) {
                if (!same_row(old, row)) {
                    old_gone = 1;
                    row_born = 1;
                }
                i++;
                j++;
            } else {
                row_born = 1;
                j++;
            }
            if (pass == 0 && old_gone) {
                if (out != NULL) {
                    out[w] = old[0];
                }
                w++;
                g++;
            }
            if (pass == 1 && row_born) {
                uint64_t copy = header_copy(k, row);
                if (out != NULL) {
                    memcpy(out + w, row, ROW_WORDS * 8);
                    out[w + ROW_WORDS] = copy;
                    if (copy != 0) {
                        /* Plain loads of code the JIT may be freeing: the reader checks the copy against the row. */
                        const volatile uint8_t *from = (const volatile uint8_t *) (uintptr_t) row[0];
                        uint8_t *to = (uint8_t *) (out + w + ROW_WORDS + 1);
                        for (uint64_t x = 0; x < copy; x++) {
                            to[x] = from[x];
                        }
                        memset(to + copy, 0, words_for(copy) * 8 - copy);
                    }
                }
                w += ROW_WORDS + 1 + words_for(copy);
                b++;
            }
        }
    }
    *gone = g;
    *born = b;
    *words = w;
    return g != 0 || b != 0;
}

/* Writes the census of n rows into the log when it changed anything; swaps it in as the written rows. */
static void write_batch(struct keeper *k, int64_t n, uint64_t now) {
    uint64_t gone;
    uint64_t born;
    uint64_t body;
    int changed = difference(k, n, NULL, &gone, &born, &body);
    if (!changed && k->first_written) {
        k->same_at = now;
        return;
    }
    uint64_t bytes = (BATCH_WORDS + body) * 8;
    uint64_t tail = __atomic_load_n(&k->tail, __ATOMIC_ACQUIRE);
    uint64_t at = k->head;
    uint64_t offset = at % k->log_size;
    uint64_t pad = offset + bytes > k->log_size ? k->log_size - offset : 0;
    if (bytes > k->log_size / 2 || at + pad + bytes - tail > k->log_size) {
        k->dropped++;
        return;
    }
    if (pad != 0) {
        *(uint64_t *) (k->log + offset) = KIND_PAD << 56 | pad;
        at += pad;
        offset = 0;
    }
    uint64_t *batch = (uint64_t *) (k->log + offset);
    batch[0] = KIND_BATCH << 56 | bytes;
    batch[1] = now;
    batch[2] = gone;
    batch[3] = born;
    batch[4] = (uint64_t) n;
    batch[5] = k->same_at;
    difference(k, n, batch + BATCH_WORDS, &gone, &born, &body);
    __atomic_store_n(&k->head, at + bytes, __ATOMIC_RELEASE);
    uint64_t *swap = k->rows;
    k->rows = k->next;
    k->next = swap;
    k->row_count = n;
    k->first_written = 1;
    k->same_at = now;
}

static void *run(void *argument) {
    struct keeper *k = argument;
    struct timespec tick = {0, (long) TICK_NANOS};
    while (!__atomic_load_n(&k->stop, __ATOMIC_ACQUIRE)) {
        uint64_t now = monotonic_nanos();
        if (walks_late(k, now)) {
            k->last_late = now;
        }
        int wanted = k->last_late != 0 && now - k->last_late <= HOLD_NANOS;
        if (wanted && (k->last_census == 0 || now - k->last_census >= CENSUS_NANOS)) {
            k->last_census = now;
            int64_t n = take(k);
            if (n < 0) {
                __atomic_fetch_add(&k->cut_short, 1, __ATOMIC_RELAXED);
            } else {
                __atomic_fetch_add(&k->censuses, 1, __ATOMIC_RELAXED);
                write_batch(k, n, monotonic_nanos());
            }
        }
        nanosleep(&tick, NULL);
    }
    return NULL;
}

static void release(struct keeper *k) {
    free(k->rows);
    free(k->next);
    if (k->log != NULL) {
        munmap(k->log, (size_t) k->log_size);
    }
    free(k);
}

/*
 * Starts a keeper of the code heaps given (CodeHeap addresses, in the order of the memory they hold; the layout as
 * code_census.c reads it), copying header_bytes of each compiled blob born, watching `watched_count` rings in perf's
 * layout (their metadata pages), into a log of log_size bytes (a multiple of 8). Returns its handle, or -errno.
 */
EXPORT int64_t mixflame_keeper_start(const uint64_t *heaps, int32_t heap_count, const uint64_t *layout,
                                     int64_t header_bytes, const int64_t *watched, int32_t watched_count,
                                     int64_t log_size) {
    if (heap_count <= 0 || heap_count > MAX_HEAPS || watched_count < 0 || watched_count > MAX_WATCHED
            || header_bytes <= 0 || header_bytes > MAX_HEADER || log_size < 65536 || log_size % 8 != 0) {
        return -EINVAL;
    }
    struct keeper *k = calloc(1, sizeof(struct keeper) + (size_t) watched_count * sizeof(struct watched));
    if (k == NULL) {
        return -ENOMEM;
    }
    memcpy(k->heaps, heaps, (size_t) heap_count * 8);
    k->heap_count = heap_count;
    memcpy(k->layout, layout, sizeof k->layout);
    k->header_bytes = (uint64_t) header_bytes;
    k->watched_count = watched_count;
    for (int i = 0; i < watched_count; i++) {
        k->watched[i].page = (const char *) (uintptr_t) watched[i];
    }
    /* The walker has walked nothing yet: until it says it waits, samples wait for it from now. */
    k->walking = monotonic_nanos();
    k->capacity = FIRST_ROWS;
    k->rows = malloc((size_t) k->capacity * ROW_WORDS * 8);
    k->next = malloc((size_t) k->capacity * ROW_WORDS * 8);
    /* Pages are touched only as batches are written: while walks keep up, none is. */
    void *log = mmap(NULL, (size_t) log_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    k->log = log == MAP_FAILED ? NULL : log;
    k->log_size = (uint64_t) log_size;
    if (k->rows == NULL || k->next == NULL || k->log == NULL) {
        release(k);
        return -ENOMEM;
    }
    int error = mixflame_start_quiet_thread(&k->thread, "mixflame-keeper", run, k);
    if (error != 0) {
        release(k);
        return -error;
    }
    k->started = 1;
    return (int64_t) (uintptr_t) k;
}

/*
 * The address of one of the keeper's words: 0 the walker's word, 1 the log's head, 2 its tail (the reader's, stored
 * after each batch it read), 3 the log's first byte; 4, 5 and 6 its counts of censuses taken, cut short and dropped.
 */
EXPORT int64_t mixflame_keeper_word(int64_t handle, int32_t which) {
    struct keeper *k = (struct keeper *) (uintptr_t) handle;
    switch (which) {
        case 0: return (int64_t) (uintptr_t) &k->walking;
        case 1: return (int64_t) (uintptr_t) &k->head;
        case 2: return (int64_t) (uintptr_t) &k->tail;
        case 3: return (int64_t) (uintptr_t) k->log;
        case 4: return (int64_t) (uintptr_t) &k->censuses;
        case 5: return (int64_t) (uintptr_t) &k->cut_short;
        case 6: return (int64_t) (uintptr_t) &k->dropped;
        default: return 0;
    }
}

/* Stops the keeper's thread; its words and log stay until freed (a walker may still be reading them). */
EXPORT int mixflame_keeper_stop(int64_t handle) {
    struct keeper *k = (struct keeper *) (uintptr_t) handle;
    if (!k->started) {
        return 0;
    }
    __atomic_store_n(&k->stop, 1, __ATOMIC_RELEASE);
    int error = pthread_join(k->thread, NULL);
    k->started = 0;
    return -error;
}

/* Frees the keeper with its log; it must have stopped. */
EXPORT int mixflame_keeper_free(int64_t handle) {
    struct keeper *k = (struct keeper *) (uintptr_t) handle;
    if (k->started) {
        return -EBUSY;
    }
    release(k);
    return 0;
}
