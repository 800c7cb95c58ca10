/*
 * The in-thread CPU sampler's native part (Linux): a CPU-time timer per thread that signals the thread
 * itself, and a signal handler that copies the interrupted thread's registers and the top of its stack into a ring
 * of ordinary memory. Nothing here waits for another thread: the handler reserves its record with a compare-and-swap,
 * copies, and publishes the record with one release store; a full ring counts the sample as lost and returns.
 *
 * The handler is async-signal-safe: system calls (gettid, process_vm_readv), the vDSO's clock, atomics, plain loads
 * and stores only. Until the reader has seen where a thread's stack lies, its stack is copied with process_vm_readv
 * on the process itself, which stops at the first page it cannot read and returns a short count instead of faulting,
 * so a copy that runs past the end of a stack is safe. Once the reader has found the thread's stack mapping in
 * /proc/self/maps, it writes the mapping's bounds into a slot of the region table and gives the thread a timer whose
 * signal names the slot: while sp lies inside those bounds the handler copies with plain loads up to the mapping's end
 * (a thread's own stack stays mapped while the thread runs the handler), a fifth of the cost here; an sp outside them
 * (an alternate signal stack, a coroutine's stack) takes process_vm_readv again. errno is kept for the interrupted
 * code. The library is linked with -z now: no lazy binding inside the handler.
 *
 * Signals that are not this sampler's (another timer, another profiler, kill) go to the handler that was installed
 * before, as that handler asked to be called.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/*
 * A timer's signal value: bits 63-40 mark it as this sampler's, bits 39-24 name the thread's slot in the region
 * table (0: none yet), bits 23-0 are the stack copy's size.
 */
#define VALUE_TAG 0x6d666cULL
#define VALUE_TAG_SHIFT 40
#define VALUE_SLOT_SHIFT 24
#define VALUE_SLOT_MASK 0xffffu
#define VALUE_BYTES_MASK 0xffffffu
#define MAX_STACK_BYTES (1u << 20)
/*
 * The region table, after the header: two words per slot, the stack's end << 16 | its length in pages, and the
 * thread's CPU time accounted for so far, in nanoseconds (only the thread itself writes it, in its handler).
 */
#define REGION_SLOTS 8192u
#define REGION_BYTES (REGION_SLOTS * 16u)
#define REGION_SIZE_BITS 16
#define RECORD_SAMPLE 1u
#define RECORD_PADDING 2u
#define ALIGN 16u
#define HEADER_BYTES 256u
#define REGISTERS 17
#define EXPORT __attribute__((visibility("default")))

/* The architecture's part, chosen by the build's include path (arch/<os.arch>): registers, TLS, system calls. */
#include "thread_timer_arch.h"

/* The ring's header, read by Java at these offsets (io.mixflame.capture.timer.TimerRing). */
struct ring_header {
    uint64_t head;          /* 0: next byte to reserve, counted from the start, never wrapped; producers CAS it */
    uint64_t pad0[7];
    uint64_t tail;          /* 64: next byte to read; only the reader stores it */
    uint64_t pad1[7];
    uint64_t lost;          /* 128: samples that found the ring full */
    uint64_t key;           /* 136: a record is published when its commit word equals its position ^ key */
    uint64_t capacity;      /* 144: data bytes, a power of two */
    uint64_t foreign;       /* 152: signals that were not this sampler's, passed on */
    uint64_t short_copies;  /* 160: samples whose stack could not be read at all */
    uint64_t interval;      /* 168: the timers' interval in nanoseconds of a thread's CPU time */
    uint64_t nudges_blocked; /* 176: nudges that found their thread blocked in a system call, not running */
    uint64_t pad2[9];
};

/* One record, read by Java at these offsets (io.mixflame.capture.timer.TimerRecord). */
struct record {
    uint64_t commit;        /* 0 */
    uint32_t length;        /* 8: the whole record, a multiple of ALIGN */
    uint32_t type;          /* 12 */
    uint32_t tid;           /* 16 */
    uint32_t stack_length;  /* 20: bytes of stack copied from sp up */
    uint64_t time;          /* 24: CLOCK_MONOTONIC nanoseconds, as perf stamps its samples */
    uint32_t overrun;       /* 32: expirations the kernel merged into this signal */
    uint32_t handler_nanos; /* 36: what this handler cost the sampled thread, to the commit */
    uint32_t slot;          /* 40: the region slot the thread's timer named (0: none) */
    uint32_t in_place;      /* 44: 1 when the stack was copied with plain loads, its bounds known */
    uint64_t thread_pointer; /* 48: the thread's TLS block, just above its stack for threads glibc made */
    uint64_t registers[REGISTERS]; /* 56: in the architecture header's slots (RECORD_SLOT_GREG) */
    /* 192: the stack copy */
};

_Static_assert(sizeof(struct ring_header) == HEADER_BYTES, "ring header layout");
_Static_assert(sizeof(struct record) == 192, "record layout");

static struct ring_header *volatile current_ring;
static uint64_t *regions;
static struct ring_header *mapped_ring;
static size_t mapped_bytes;
static int installed_signal;
static struct sigaction previous;
static pid_t own_pid;
/* Handlers running now: the ring is unmapped only once none is. */
static volatile int active_handlers;

static uint64_t monotonic_nanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec;
}

static void pass_on(int signo, siginfo_t *info, void *context) {
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) {
            previous.sa_sigaction(signo, info, context);
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signo);
    }
    /* SIG_DFL would end the process for a signal nobody asked for: a stray one is dropped instead. */
}

static char *data_of(struct ring_header *ring) {
    return (char *) (ring + 1) + REGION_BYTES;
}

/* Reserves room for a record of `length` bytes; returns its position, or UINT64_MAX when the ring is full. */
static uint64_t reserve(struct ring_header *ring, uint32_t length) {
    uint64_t capacity = ring->capacity;
    uint64_t head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
    for (;;) {
        uint64_t tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
        uint64_t offset = head & (capacity - 1);
        uint64_t padding = offset + length > capacity ? capacity - offset : 0;
        if (head + padding + length - tail > capacity) {
            return UINT64_MAX;
        }
        if (__atomic_compare_exchange_n(&ring->head, &head, head + padding + length, 1, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            if (padding != 0) {
                struct record *pad = (struct record *) (data_of(ring) + offset);
                pad->length = (uint32_t) padding;
                pad->type = RECORD_PADDING;
                __atomic_store_n(&pad->commit, head ^ ring->key, __ATOMIC_RELEASE);
            }
            return head + padding;
        }
    }
}

/*
 * How many bytes from sp lie in the thread's known stack, up to `bytes`, when sp lies in it; -1 when it does not (or
 * is not known): then the copy is process_vm_readv's.
 */
static int64_t known_stack_bytes(uint32_t slot, uint64_t sp, uint32_t bytes) {
    if (slot == 0 || slot >= REGION_SLOTS) {
        return -1;
    }
    uint64_t word = __atomic_load_n(&regions[2 * slot], __ATOMIC_ACQUIRE);
    if (word == 0) {
        return -1;
    }
    uint64_t high = word >> REGION_SIZE_BITS;
    uint64_t low = high - ((word & ((1ULL << REGION_SIZE_BITS) - 1)) << 12);
    if (sp < low || sp >= high) {
        return -1;
    }
    return (int64_t) (high - sp < bytes ? high - sp : bytes);
}

static void take_sample(struct ring_header *ring, uint32_t weight, ucontext_t *context, uint32_t stack_bytes,
                        uint32_t slot, uint64_t start) {
    uint64_t sp = context_sp(context);
    /* A known stack is copied as far as it goes, and the record is that long: a shallow thread's records are small. */
    int64_t known = stack_bytes == 0 ? -1 : known_stack_bytes(slot, sp, stack_bytes);
    uint32_t reserved = known >= 0 ? (uint32_t) known : stack_bytes;
    uint32_t length = (uint32_t) ((sizeof(struct record) + reserved + ALIGN - 1) & ~(uint64_t) (ALIGN - 1));
    uint64_t position = reserve(ring, length);
    if (position == UINT64_MAX) {
        __atomic_fetch_add(&ring->lost, 1, __ATOMIC_RELAXED);
        return;
    }
    struct record *r = (struct record *) (data_of(ring) + (position & (ring->capacity - 1)));
    r->length = length;
    r->type = RECORD_SAMPLE;
    r->tid = (uint32_t) syscall(SYS_gettid);
    r->time = start;
    r->overrun = weight - 1;
    r->slot = slot;
    r->in_place = 0;
    r->thread_pointer = thread_pointer();
    context_registers(context, r->registers);
    uint32_t copied = 0;
    if (known >= 0) {
        memcpy((char *) (r + 1), (const void *) (uintptr_t) sp, (size_t) known);
        copied = (uint32_t) known;
        r->in_place = 1;
    } else if (stack_bytes != 0) {
        struct iovec local = {(char *) (r + 1), stack_bytes};
        struct iovec remote = {(void *) (uintptr_t) sp, stack_bytes};
        ssize_t n = syscall(SYS_process_vm_readv, own_pid, &local, 1UL, &remote, 1UL, 0UL);
        if (n > 0) {
            copied = (uint32_t) n;
        } else {
            __atomic_fetch_add(&ring->short_copies, 1, __ATOMIC_RELAXED);
        }
    }
    r->stack_length = copied;
    uint64_t cost = monotonic_nanos() - start;
    r->handler_nanos = cost > UINT32_MAX ? UINT32_MAX : (uint32_t) cost;
    __atomic_store_n(&r->commit, position ^ ring->key, __ATOMIC_RELEASE);
}

/* A signal of this sampler's: a timer's, or a nudge the reader sent from this process. */
static int is_ours(const siginfo_t *info) {
    if (info == NULL || ((uint64_t) (uintptr_t) info->si_value.sival_ptr >> VALUE_TAG_SHIFT) != VALUE_TAG) {
        return 0;
    }
    return info->si_code == SI_TIMER || (info->si_code == SI_QUEUE && info->si_pid == own_pid);
}

/*
 * Whether the interrupted thread was blocked in a system call rather than running, told by the code around its pc
 * (the architecture's blocked_in_syscall), read with process_vm_readv, which cannot fault.
 */
static int in_blocking_syscall(const ucontext_t *context) {
    uint8_t code[SYSCALL_BYTES];
    struct iovec local = {code, sizeof code};
    struct iovec remote = {(void *) (uintptr_t) (context_pc(context) - SYSCALL_BEFORE), sizeof code};
    if (syscall(SYS_process_vm_readv, own_pid, &local, 1UL, &remote, 1UL, 0UL) != (ssize_t) sizeof code) {
        return 0;
    }
    return blocked_in_syscall(context, code);
}

static uint64_t thread_cpu_nanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec;
}

/*
 * The intervals of CPU time a signal of a thread with a slot stands for: its CPU time not yet accounted, in whole
 * intervals (the rest is kept for its next sample), whatever ticks the kernel's timer saw. 0 when there is nothing to
 * sample: no whole interval owed (a nudge and the timer both came), or a nudge that found the thread blocked.
 */
static uint32_t owed_intervals(struct ring_header *ring, const siginfo_t *info, const ucontext_t *context,
                               uint32_t slot) {
    if (info->si_code == SI_QUEUE && in_blocking_syscall(context)) {
        __atomic_fetch_add(&ring->nudges_blocked, 1, __ATOMIC_RELAXED);
        return 0;
    }
    uint64_t interval = ring->interval;
    uint64_t *accounted = &regions[2 * slot + 1];
    uint64_t cpu = thread_cpu_nanos();
    uint64_t was = *accounted;
    if (interval == 0 || cpu <= was) {
        return 0;
    }
    uint64_t owed = (cpu - was) / interval;
    if (owed > UINT32_MAX / 2) {
        owed = UINT32_MAX / 2;
    }
    *accounted = was + owed * interval;
    return (uint32_t) owed;
}

static void on_signal(int signo, siginfo_t *info, void *context) {
    if (!is_ours(info)) {
        struct ring_header *ring = current_ring;
        if (ring != NULL) {
            __atomic_fetch_add(&ring->foreign, 1, __ATOMIC_RELAXED);
        }
        pass_on(signo, info, context);
        return;
    }
    int saved_errno = errno;
    __atomic_fetch_add(&active_handlers, 1, __ATOMIC_SEQ_CST);
    struct ring_header *ring = __atomic_load_n(&current_ring, __ATOMIC_SEQ_CST);
    if (ring != NULL) {
        uint64_t start = monotonic_nanos();
        uint64_t value = (uint64_t) (uintptr_t) info->si_value.sival_ptr;
        uint32_t stack_bytes = (uint32_t) (value & VALUE_BYTES_MASK) & ~7u;
        if (stack_bytes > MAX_STACK_BYTES) {
            stack_bytes = MAX_STACK_BYTES;
        }
        uint32_t slot = (uint32_t) (value >> VALUE_SLOT_SHIFT) & VALUE_SLOT_MASK;
        if (slot >= REGION_SLOTS) {
            slot = 0;
        }
        /* Without a slot, the kernel's count of expirations merged into this signal. */
        uint32_t weight = slot != 0 ? owed_intervals(ring, info, (const ucontext_t *) context, slot)
                : info->si_code == SI_TIMER ? 1 + (uint32_t) (info->si_overrun > 0 ? info->si_overrun : 0) : 0;
        if (weight != 0) {
            take_sample(ring, weight, (ucontext_t *) context, stack_bytes, slot, start);
        }
    }
    __atomic_fetch_sub(&active_handlers, 1, __ATOMIC_SEQ_CST);
    errno = saved_errno;
}

/*
 * Maps a ring of `capacity` data bytes (a power of two) and installs the handler for `signo`, keeping the handler
 * that was there. Returns the ring's address, or -errno.
 */
EXPORT int64_t mixflame_timer_install(int signo, uint64_t capacity, int64_t interval_nanos) {
    if (current_ring != NULL || installed_signal != 0) {
        return -EBUSY;
    }
    if (capacity < 4096 || (capacity & (capacity - 1)) != 0) {
        return -EINVAL;
    }
    size_t bytes = HEADER_BYTES + REGION_BYTES + capacity;
    void *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (memory == MAP_FAILED) {
        return -errno;
    }
    struct ring_header *ring = memory;
    ring->capacity = capacity;
    ring->interval = interval_nanos > 0 ? (uint64_t) interval_nanos : 0;
    regions = (uint64_t *) (ring + 1);
    ring->key = (monotonic_nanos() * 0x9e3779b97f4a7c15ULL) ^ (uint64_t) (uintptr_t) memory ^ 0x5bd1e9955bd1e995ULL;
    own_pid = getpid();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    mapped_ring = ring;
    mapped_bytes = bytes;
    /* The handler before is read first, so that a signal arriving as ours goes in never finds a half-written copy. */
    if (sigaction(signo, NULL, &previous) != 0) {
        int error = errno;
        munmap(memory, bytes);
        mapped_ring = NULL;
        return -error;
    }
    __atomic_store_n(&current_ring, ring, __ATOMIC_SEQ_CST);
    if (sigaction(signo, &action, NULL) != 0) {
        int error = errno;
        current_ring = NULL;
        munmap(memory, bytes);
        mapped_ring = NULL;
        return -error;
    }
    installed_signal = signo;
    return (int64_t) (uintptr_t) ring;
}

/*
 * Puts back the handler that was there before, after dropping every signal of this kind still pending on any thread
 * (a timer deleted with its signal queued would otherwise deliver it to that handler, or end the process where the
 * default action stood), and unmaps the ring once no handler runs in it. Returns 0, or 1 when a handler still ran
 * after `wait_millis` and the ring was left mapped (released, not unmapped), or -errno.
 */
EXPORT int mixflame_timer_uninstall(int wait_millis) {
    if (installed_signal == 0) {
        return 0;
    }
    __atomic_store_n(&current_ring, (struct ring_header *) NULL, __ATOMIC_SEQ_CST);
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    int result = 0;
    if (sigaction(installed_signal, &ignore, NULL) != 0 || sigaction(installed_signal, &previous, NULL) != 0) {
        result = -errno;
    }
    installed_signal = 0;
    struct timespec pause = {0, 1000000};
    for (int waited = 0; __atomic_load_n(&active_handlers, __ATOMIC_SEQ_CST) != 0; waited++) {
        if (waited >= wait_millis) {
            madvise(mapped_ring, mapped_bytes, MADV_DONTNEED);
            mapped_ring = NULL;
            return result == 0 ? 1 : result;
        }
        nanosleep(&pause, NULL);
    }
    munmap(mapped_ring, mapped_bytes);
    mapped_ring = NULL;
    return result;
}

/*
 * Starts a timer on thread `tid`'s CPU clock that signals that thread every `interval_nanos` of its CPU time, its
 * samples copying `stack_bytes` of stack, the thread's stack bounds in region slot `slot` (0: not known). Returns the
 * kernel's timer id, or -errno.
 */
EXPORT int mixflame_timer_create(int tid, int64_t interval_nanos, uint32_t stack_bytes, uint32_t slot) {
    if (installed_signal == 0 || slot >= REGION_SLOTS || stack_bytes > MAX_STACK_BYTES) {
        return -EINVAL;
    }
    /* The kernel's struct sigevent, with the target thread where glibc's keeps a union. */
    struct {
        union sigval value;
        int signo;
        int notify;
        int thread_id;
        int pad[11];
    } event;
    memset(&event, 0, sizeof event);
    event.value.sival_ptr = (void *) (uintptr_t) ((VALUE_TAG << VALUE_TAG_SHIFT)
                                                  | ((uint64_t) slot << VALUE_SLOT_SHIFT) | (stack_bytes & ~7u));
    event.signo = installed_signal;
    event.notify = SIGEV_THREAD_ID;
    event.thread_id = tid;
    /* The thread's scheduler CPU clock, as the kernel numbers per-thread clocks. */
    clockid_t clock = (clockid_t) ((~(unsigned int) tid) << 3) | 6;
    int timer_id = -1;
    if (syscall(SYS_timer_create, clock, &event, &timer_id) != 0) {
        return -errno;
    }
    if (slot != 0 && __atomic_load_n(&regions[2 * slot + 1], __ATOMIC_ACQUIRE) == 0) {
        /* A slot newly given: the thread's CPU time is accounted for from now on. */
        struct timespec t;
        clockid_t thread_clock = (clockid_t) ((~(unsigned int) tid) << 3) | 6;
        if (clock_gettime(thread_clock, &t) == 0) {
            __atomic_store_n(&regions[2 * slot + 1],
                             (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec, __ATOMIC_RELEASE);
        }
    }
    struct itimerspec spec;
    spec.it_interval.tv_sec = interval_nanos / 1000000000LL;
    spec.it_interval.tv_nsec = interval_nanos % 1000000000LL;
    spec.it_value = spec.it_interval;
    if (syscall(SYS_timer_settime, timer_id, 0, &spec, NULL) != 0) {
        int error = errno;
        syscall(SYS_timer_delete, timer_id);
        return -error;
    }
    return timer_id;
}

/*
 * For each of `n` threads with a slot, whose timer's expiry has passed without the kernel having seen it (a CPU timer
 * is checked at the scheduler's tick, for the thread running then; a thread switched in and out between ticks is
 * never seen), sends the thread the sampler's signal itself: its handler samples it when it next runs, weighted by its
 * CPU time not yet accounted. Returns how many were sent.
 */
EXPORT int mixflame_timer_nudge_overdue(const int32_t *timer_ids, const int32_t *tids, const uint32_t *stack_bytes,
                                        const uint32_t *slots, int n) {
    if (installed_signal == 0) {
        return 0;
    }
    int sent = 0;
    for (int i = 0; i < n; i++) {
        struct itimerspec left;
        if (syscall(SYS_timer_gettime, timer_ids[i], &left) != 0) {
            continue;
        }
        /* The kernel answers 1 ns for a CPU timer past its expiry whose firing has not taken place. */
        if (left.it_value.tv_sec != 0 || left.it_value.tv_nsec != 1) {
            continue;
        }
        siginfo_t info;
        memset(&info, 0, sizeof info);
        info.si_signo = installed_signal;
        info.si_code = SI_QUEUE;
        info.si_pid = own_pid;
        info.si_uid = getuid();
        info.si_value.sival_ptr = (void *) (uintptr_t) ((VALUE_TAG << VALUE_TAG_SHIFT)
                                                        | ((uint64_t) slots[i] << VALUE_SLOT_SHIFT)
                                                        | (stack_bytes[i] & ~7u));
        if (syscall(SYS_rt_tgsigqueueinfo, own_pid, tids[i], installed_signal, &info) == 0) {
            sent++;
        }
    }
    return sent;
}

/* Deletes a timer made by mixflame_timer_create. Returns 0 or -errno. */
EXPORT int mixflame_timer_delete(int timer_id) {
    return syscall(SYS_timer_delete, timer_id) == 0 ? 0 : -errno;
}
