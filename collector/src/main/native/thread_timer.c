/*
 * The in-thread CPU sampler's native part (Linux, x86-64): a CPU-time timer per thread that signals the thread
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
/* The region table, after the header: a word per slot, the stack's end << 16 | its length in pages. */
#define REGION_SLOTS 8192u
#define REGION_BYTES (REGION_SLOTS * 8u)
#define REGION_SIZE_BITS 16
#define RECORD_SAMPLE 1u
#define RECORD_PADDING 2u
#define ALIGN 16u
#define HEADER_BYTES 256u
#define REGISTERS 17
#define EXPORT __attribute__((visibility("default")))

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
    uint64_t pad2[11];
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
    uint32_t pad;           /* 44 */
    uint64_t thread_pointer; /* 48: the thread's TLS block (%fs:0), just above its stack for threads glibc made */
    uint64_t registers[REGISTERS]; /* 56: by DWARF's x86-64 numbers */
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

static const int DWARF_TO_GREG[REGISTERS] = {
    REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
    REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP
};

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

/* Copies from sp with plain loads when sp lies in the thread's known stack mapping; -1 when it does not. */
static int64_t copy_known_stack(uint32_t slot, uint64_t sp, char *to, uint32_t bytes) {
    if (slot == 0 || slot >= REGION_SLOTS) {
        return -1;
    }
    uint64_t word = __atomic_load_n(&regions[slot], __ATOMIC_ACQUIRE);
    if (word == 0) {
        return -1;
    }
    uint64_t high = word >> REGION_SIZE_BITS;
    uint64_t low = high - ((word & ((1ULL << REGION_SIZE_BITS) - 1)) << 12);
    if (sp < low || sp >= high) {
        return -1;
    }
    uint64_t n = high - sp < bytes ? high - sp : bytes;
    memcpy(to, (const void *) (uintptr_t) sp, n);
    return (int64_t) n;
}

static void take_sample(struct ring_header *ring, siginfo_t *info, ucontext_t *context, uint32_t stack_bytes,
                        uint32_t slot, uint64_t start) {
    uint32_t length = (uint32_t) ((sizeof(struct record) + stack_bytes + ALIGN - 1) & ~(uint64_t) (ALIGN - 1));
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
    r->overrun = info->si_overrun > 0 ? (uint32_t) info->si_overrun : 0;
    r->slot = slot;
    r->pad = 0;
    uint64_t thread_pointer;
    __asm__ volatile("mov %%fs:0, %0" : "=r"(thread_pointer));
    r->thread_pointer = thread_pointer;
    const greg_t *g = context->uc_mcontext.gregs;
    for (int i = 0; i < REGISTERS; i++) {
        r->registers[i] = (uint64_t) g[DWARF_TO_GREG[i]];
    }
    uint32_t copied = 0;
    int64_t known = stack_bytes == 0 ? -1 : copy_known_stack(slot, (uint64_t) g[REG_RSP], (char *) (r + 1), stack_bytes);
    if (known >= 0) {
        copied = (uint32_t) known;
    } else if (stack_bytes != 0) {
        struct iovec local = {(char *) (r + 1), stack_bytes};
        struct iovec remote = {(void *) (uintptr_t) g[REG_RSP], stack_bytes};
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

static void on_signal(int signo, siginfo_t *info, void *context) {
    if (info == NULL || info->si_code != SI_TIMER
        || ((uint64_t) (uintptr_t) info->si_value.sival_ptr >> VALUE_TAG_SHIFT) != VALUE_TAG) {
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
        take_sample(ring, info, (ucontext_t *) context, stack_bytes,
                    (uint32_t) (value >> VALUE_SLOT_SHIFT) & VALUE_SLOT_MASK, start);
    }
    __atomic_fetch_sub(&active_handlers, 1, __ATOMIC_SEQ_CST);
    errno = saved_errno;
}

/*
 * Maps a ring of `capacity` data bytes (a power of two) and installs the handler for `signo`, keeping the handler
 * that was there. Returns the ring's address, or -errno.
 */
EXPORT int64_t mixflame_timer_install(int signo, uint64_t capacity) {
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

/* Deletes a timer made by mixflame_timer_create. Returns 0 or -errno. */
EXPORT int mixflame_timer_delete(int timer_id) {
    return syscall(SYS_timer_delete, timer_id) == 0 ? 0 : -errno;
}
