/*
 * Worker threads parked in functions of each x64 unwind shape, and a controller that suspends them, captures each
 * one's registers and stack, walks it with DbgHelp's StackWalk64 and writes everything to a text dump: the oracle
 * for mixflame's own PE unwinder (WindowsUnwindIT).
 *
 * Build: x86_64-w64-mingw32-gcc -O2 -o unwind_shapes.exe unwind_shapes.c -ldbghelp -lpsapi
 * Run:   unwind_shapes.exe DUMP_PATH
 *
 * Each worker runs a chain of shape functions, each calling the next; the last one spins until released, so the
 * thread is suspended at a pc in that function's body (a spin, not a wait: a wait would park the thread inside
 * ntdll's system call path, which is not what this test is about).
 *
 * Most workers are started by CreateThread; one by ucrtbase's _beginthreadex, as a JVM starts its threads, so that
 * the C runtime's own thread start sits between the worker and kernel32's.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <dbghelp.h>
#include <malloc.h>
#include <psapi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
#define MAX_CHAIN 8
#define MAX_WALK 128

typedef struct chain chain;
typedef int (*shape_fn)(const chain *rest);
struct chain {
    shape_fn steps[MAX_CHAIN];
};

/* Referenced by the hand-written leaf below, so not static. */
volatile LONG parked;
volatile LONG released;
volatile LONG size_of_alloca = 6000;

/* The shape functions call on through the chain, or park. Using the callee's result keeps the call from
   becoming a tail jump, so every shape leaves a frame of its own. */
static inline int next_or_park(const chain *rest) {
    if (rest->steps[0] != NULL) {
        return rest->steps[0]((const chain *) &rest->steps[1]) + 1;
    }
    InterlockedIncrement(&parked);
    while (!released) {
        __builtin_ia32_pause();
    }
    return 1;
}

/* rbp as frame register (UWOP_SET_FPREG), however -O2 would have it. */
__attribute__((optimize("no-omit-frame-pointer"))) NOINLINE int shape_frame_pointer(const chain *rest) {
    volatile int local[8];
    local[3] = 3;
    return next_or_park(rest) + local[3];
}

/* No frame pointer, a small fixed frame (UWOP_ALLOC_SMALL). */
NOINLINE int shape_no_frame_pointer(const chain *rest) {
    volatile int local[4];
    local[1] = 1;
    return next_or_park(rest) + local[1];
}

/* A frame larger than a page: the prolog probes it (___chkstk_ms) and allocates it with UWOP_ALLOC_LARGE. */
NOINLINE int shape_large_frame(const chain *rest) {
    volatile char big[20000];
    big[0] = 1;
    big[sizeof big - 1] = 2;
    return next_or_park(rest) + big[0] + big[sizeof big - 1];
}

/* A dynamic allocation of more than a page: rsp moves at run time, so the frame is found from rbp. */
NOINLINE int shape_alloca(const chain *rest) {
    volatile char *p = alloca(size_of_alloca);
    p[0] = 5;
    p[size_of_alloca - 1] = 6;
    return next_or_park(rest) + p[0] + p[size_of_alloca - 1];
}

/* Every general non-volatile register clobbered, so the prolog pushes them all (UWOP_PUSH_NONVOL). */
NOINLINE int shape_nonvolatile(const chain *rest) {
    __asm__ volatile("" ::: "rbx", "rsi", "rdi", "rbp", "r12", "r13", "r14", "r15", "memory");
    return next_or_park(rest) + 7;
}

/* The non-volatile XMM registers clobbered, so the prolog saves them (UWOP_SAVE_XMM128). */
NOINLINE int shape_xmm(const chain *rest) {
    __asm__ volatile("" ::: "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
                     "rbx", "rsi", "memory");
    return next_or_park(rest) + 9;
}

/* A leaf with no unwind data at all (no .seh directives, so no .pdata entry): parks at the top of the stack with
   rsp at its return address, as Windows expects of a function without a RUNTIME_FUNCTION. */
int leaf_park(void);
__asm__(".text\n"
        ".globl leaf_park\n"
        "leaf_park:\n"
        "  lock incl parked(%rip)\n"
        "1:\n"
        "  pause\n"
        "  cmpl $0, released(%rip)\n"
        "  je 1b\n"
        "  movl $1, %eax\n"
        "  ret\n");

NOINLINE int shape_calls_leaf(const chain *rest) {
    (void) rest;
    return leaf_park() + 11;
}

typedef struct worker {
    const char *name;
    chain chain;
    int on_fiber;
    int by_crt;
    HANDLE thread;
    void *fiber;
    void *thread_fiber;
} worker;

static worker workers[] = {
    {.name = "frame-pointer", .chain = {{shape_frame_pointer}}, .on_fiber = 0},
    {.name = "no-frame-pointer", .chain = {{shape_no_frame_pointer}}, .on_fiber = 0},
    {.name = "large-frame", .chain = {{shape_large_frame}}, .on_fiber = 0},
    {.name = "alloca", .chain = {{shape_alloca}}, .on_fiber = 0},
    {.name = "nonvolatile", .chain = {{shape_nonvolatile}}, .on_fiber = 0},
    {.name = "xmm", .chain = {{shape_xmm}}, .on_fiber = 0},
    {.name = "leaf-without-unwind-data", .chain = {{shape_no_frame_pointer, shape_calls_leaf}}, .on_fiber = 0},
    {.name = "every-shape", .chain = {{shape_alloca, shape_xmm, shape_large_frame, shape_frame_pointer, shape_nonvolatile,
                      shape_no_frame_pointer, shape_calls_leaf}}, .on_fiber = 0},
    {.name = "fiber", .chain = {{shape_nonvolatile, shape_frame_pointer, shape_large_frame}}, .on_fiber = 1},
    {.name = "crt-thread", .chain = {{shape_no_frame_pointer}}, .by_crt = 1},
};
#define WORKER_COUNT ((int) (sizeof workers / sizeof workers[0]))

static NOINLINE int run_chain(worker *w) {
    return w->chain.steps[0]((const chain *) &w->chain.steps[1]) + 1;
}

static void WINAPI fiber_main(void *arg) {
    worker *w = arg;
    run_chain(w);
    SwitchToFiber(w->thread_fiber);
}

static volatile LONG finished;

static DWORD WINAPI worker_main(void *arg) {
    worker *w = arg;
    if (!w->on_fiber) {
        /* Counting after the call keeps it from being a tail jump, so this frame stays on the stack too. */
        DWORD result = (DWORD) run_chain(w);
        InterlockedIncrement(&finished);
        return result;
    }
    /* A second stack: the chain runs on a fiber's stack, which the TEB's stack limits then describe. */
    w->thread_fiber = ConvertThreadToFiber(NULL);
    w->fiber = CreateFiber(256 * 1024, fiber_main, w);
    if (w->thread_fiber == NULL || w->fiber == NULL) {
        fprintf(stderr, "fiber: error %lu\n", GetLastError());
        InterlockedIncrement(&parked);
        return 1;
    }
    SwitchToFiber(w->fiber);
    DeleteFiber(w->fiber);
    return 0;
}

/* THREAD_BASIC_INFORMATION as ntdll fills it; declared here since the MinGW headers do not. */
typedef struct {
    LONG exit_status;
    void *teb_base_address;
    void *client_id[2];
    ULONG_PTR affinity_mask;
    LONG priority;
    LONG base_priority;
} thread_basic_information;
typedef LONG(WINAPI *query_thread_fn)(HANDLE, int, void *, ULONG, ULONG *);

static FILE *out;

static void die(const char *what) {
    fprintf(stderr, "unwind_shapes: %s failed: error %lu\n", what, GetLastError());
    fflush(stderr);
    ExitProcess(2);
}

/* This process's memory from one address, 64 bytes a line, a page at a time; unreadable pages are left out. */
static void write_memory(const unsigned char *from, SIZE_T size) {
    static unsigned char page[4096];
    for (SIZE_T at = 0; at < size; at += sizeof page) {
        SIZE_T got = 0;
        if (!ReadProcessMemory(GetCurrentProcess(), from + at, page, sizeof page, &got) || got != sizeof page) {
            continue;
        }
        for (SIZE_T line = 0; line < sizeof page; line += 64) {
            fprintf(out, "memory %llx ", (unsigned long long) (ULONG_PTR) (from + at + line));
            for (int i = 0; i < 64; i++) {
                fprintf(out, "%02x", page[line + i]);
            }
            fputc('\n', out);
        }
    }
}

/* Whether a module's file holds the build that was loaded (same link stamp and size of image): Wine may map its
   builtin DLL under the name of a native file it found first, such as a JRE's own ucrtbase.dll. */
static int file_is_loaded(const WCHAR *path, const unsigned char *base) {
    const IMAGE_NT_HEADERS64 *loaded = (const void *) (base + ((const IMAGE_DOS_HEADER *) base)->e_lfanew);
    HANDLE file = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                              OPEN_EXISTING, 0, NULL);
    if (file == INVALID_HANDLE_VALUE) {
        return 0;
    }
    static unsigned char headers[4096];
    DWORD got = 0;
    BOOL read = ReadFile(file, headers, sizeof headers, &got, NULL);
    CloseHandle(file);
    if (!read || got < sizeof(IMAGE_DOS_HEADER)) {
        return 0;
    }
    LONG at = ((const IMAGE_DOS_HEADER *) headers)->e_lfanew;
    if (at < 0 || (DWORD) at + sizeof(IMAGE_NT_HEADERS64) > got) {
        return 0;
    }
    const IMAGE_NT_HEADERS64 *on_disk = (const void *) (headers + at);
    return on_disk->FileHeader.TimeDateStamp == loaded->FileHeader.TimeDateStamp
           && on_disk->OptionalHeader.SizeOfImage == loaded->OptionalHeader.SizeOfImage;
}

/* Each module, its headers as loaded, and the whole loaded image of a module whose file is another build (a walker
   reading that file would read other code's unwind data). */
static void write_modules(HANDLE process) {
    HMODULE modules[512];
    DWORD needed;
    if (!EnumProcessModules(process, modules, sizeof modules, &needed)) {
        die("EnumProcessModules");
    }
    for (DWORD i = 0; i < needed / sizeof(HMODULE) && i < 512; i++) {
        MODULEINFO info;
        WCHAR wide[MAX_PATH];
        char path[4 * MAX_PATH];
        if (!GetModuleInformation(process, modules[i], &info, sizeof info)
                || !GetModuleFileNameExW(process, modules[i], wide, MAX_PATH)
                || !WideCharToMultiByte(CP_UTF8, 0, wide, -1, path, sizeof path, NULL, NULL)) {
            die("module information");
        }
        fprintf(out, "module %llx %lx %s\n", (unsigned long long) (ULONG_PTR) info.lpBaseOfDll, info.SizeOfImage,
                path);
        if (file_is_loaded(wide, info.lpBaseOfDll)) {
            write_memory(info.lpBaseOfDll, 4096);
        } else {
            fprintf(out, "not-its-file %llx\n", (unsigned long long) (ULONG_PTR) info.lpBaseOfDll);
            write_memory(info.lpBaseOfDll, info.SizeOfImage);
        }
    }
}

static void write_symbols(void) {
    const struct {
        const char *name;
        void *address;
    } symbols[] = {
        {"shape_frame_pointer", shape_frame_pointer},
        {"shape_no_frame_pointer", shape_no_frame_pointer},
        {"shape_large_frame", shape_large_frame},
        {"shape_alloca", shape_alloca},
        {"shape_nonvolatile", shape_nonvolatile},
        {"shape_xmm", shape_xmm},
        {"leaf_park", leaf_park},
        {"shape_calls_leaf", shape_calls_leaf},
        {"run_chain", run_chain},
        {"fiber_main", fiber_main},
        {"worker_main", worker_main},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        fprintf(out, "symbol %s %llx\n", symbols[i].name, (unsigned long long) (ULONG_PTR) symbols[i].address);
    }
}

static void write_registers(const CONTEXT *c) {
    fprintf(out, "reg rax %llx\nreg rcx %llx\nreg rdx %llx\nreg rbx %llx\n", c->Rax, c->Rcx, c->Rdx, c->Rbx);
    fprintf(out, "reg rsp %llx\nreg rbp %llx\nreg rsi %llx\nreg rdi %llx\n", c->Rsp, c->Rbp, c->Rsi, c->Rdi);
    fprintf(out, "reg r8 %llx\nreg r9 %llx\nreg r10 %llx\nreg r11 %llx\n", c->R8, c->R9, c->R10, c->R11);
    fprintf(out, "reg r12 %llx\nreg r13 %llx\nreg r14 %llx\nreg r15 %llx\n", c->R12, c->R13, c->R14, c->R15);
    fprintf(out, "reg rip %llx\n", c->Rip);
}

/* The stack from rsp to the TEB's stack base, 32 bytes a line. */
static void write_stack(ULONG_PTR rsp, ULONG_PTR base) {
    for (ULONG_PTR at = rsp; at < base; at += 32) {
        fprintf(out, "stack %llx ", (unsigned long long) at);
        for (ULONG_PTR i = at; i < at + 32 && i < base; i++) {
            fprintf(out, "%02x", *(const unsigned char *) i);
        }
        fputc('\n', out);
    }
}

static void write_walk(HANDLE process, HANDLE thread, const CONTEXT *captured) {
    static CONTEXT walked __attribute__((aligned(16)));
    walked = *captured;
    STACKFRAME64 frame;
    memset(&frame, 0, sizeof frame);
    /* Every address flat: an AddrFrame left in mode 0 (16:16) makes StackWalk64 refuse the walk. */
    frame.AddrPC.Offset = captured->Rip;
    frame.AddrPC.Mode = AddrModeFlat;
    frame.AddrStack.Offset = captured->Rsp;
    frame.AddrStack.Mode = AddrModeFlat;
    frame.AddrFrame.Offset = captured->Rbp;
    frame.AddrFrame.Mode = AddrModeFlat;
    char buffer[sizeof(SYMBOL_INFO) + 256];
    for (int i = 0; i < MAX_WALK; i++) {
        if (!StackWalk64(IMAGE_FILE_MACHINE_AMD64, process, thread, &frame, &walked, NULL,
                         SymFunctionTableAccess64, SymGetModuleBase64, NULL)) {
            fprintf(out, "walk-end %d error %lu\n", i, GetLastError());
            return;
        }
        SYMBOL_INFO *symbol = (SYMBOL_INFO *) buffer;
        memset(buffer, 0, sizeof buffer);
        symbol->SizeOfStruct = sizeof(SYMBOL_INFO);
        symbol->MaxNameLen = 255;
        DWORD64 displacement = 0;
        IMAGEHLP_MODULE64 module;
        memset(&module, 0, sizeof module);
        module.SizeOfStruct = sizeof module;
        const char *name = SymFromAddr(process, frame.AddrPC.Offset, &displacement, symbol) ? symbol->Name : "?";
        const char *module_name = SymGetModuleInfo64(process, frame.AddrPC.Offset, &module) ? module.ModuleName
                                                                                              : "?";
        fprintf(out, "frame %llx %llx %llx %llx %s!%s+0x%llx\n", frame.AddrPC.Offset, frame.AddrStack.Offset,
                frame.AddrFrame.Offset, frame.AddrReturn.Offset, module_name, name, displacement);
        if (frame.AddrReturn.Offset == 0) {
            fprintf(out, "walk-end %d return-address-zero\n", i + 1);
            return;
        }
    }
    fprintf(out, "walk-end %d frame-cap\n", MAX_WALK);
}

static DWORD WINAPI controller_main(void *arg) {
    (void) arg;
    HANDLE process = GetCurrentProcess();
    query_thread_fn query = (query_thread_fn) (void *) GetProcAddress(GetModuleHandleA("ntdll.dll"),
                                                                        "NtQueryInformationThread");
    if (query == NULL) {
        die("finding NtQueryInformationThread");
    }
    for (int waited = 0; parked < WORKER_COUNT; waited++) {
        if (waited > 60000) {
            SetLastError(0);
            die("waiting for the workers to park");
        }
        Sleep(1);
    }
    /* Stop every worker first, so that none burns a core while DbgHelp works. */
    static CONTEXT contexts[WORKER_COUNT] __attribute__((aligned(16)));
    for (int i = 0; i < WORKER_COUNT; i++) {
        if (SuspendThread(workers[i].thread) == (DWORD) -1) {
            die("SuspendThread");
        }
        contexts[i].ContextFlags = CONTEXT_FULL;
        if (!GetThreadContext(workers[i].thread, &contexts[i])) {
            die("GetThreadContext");
        }
    }
    SymSetOptions(SymGetOptions() | SYMOPT_UNDNAME);
    if (!SymInitialize(process, NULL, TRUE)) {
        die("SymInitialize");
    }
    fprintf(out, "mixflame-pe-stack-dump 1\n");
    write_modules(process);
    write_symbols();
    for (int i = 0; i < WORKER_COUNT; i++) {
        thread_basic_information basic;
        if (query(workers[i].thread, 0, &basic, sizeof basic, NULL) != 0) {
            die("NtQueryInformationThread");
        }
        const NT_TIB *tib = basic.teb_base_address;
        fprintf(out, "thread %s\n", workers[i].name);
        fprintf(out, "stack-limits %llx %llx\n", (unsigned long long) (ULONG_PTR) tib->StackLimit,
                (unsigned long long) (ULONG_PTR) tib->StackBase);
        write_registers(&contexts[i]);
        write_stack(contexts[i].Rsp, (ULONG_PTR) tib->StackBase);
        write_walk(process, workers[i].thread, &contexts[i]);
        fprintf(out, "end-thread\n");
    }
    fprintf(out, "end-dump\n");
    fflush(out);
    released = 1;
    for (int i = 0; i < WORKER_COUNT; i++) {
        ResumeThread(workers[i].thread);
    }
    return 0;
}

/* _beginthreadex's start routine: the x64 calling convention is one, so worker_main fits it as it is. */
typedef unsigned(__stdcall *crt_start_fn)(void *);
typedef uintptr_t(__cdecl *beginthreadex_fn)(void *, unsigned, crt_start_fn, void *, unsigned, unsigned *);

/* The thread from ucrtbase.dll itself (loaded, not linked: MinGW's own runtime may be msvcrt), as a JVM's are. */
static HANDLE start_by_crt(worker *w) {
    HMODULE ucrt = LoadLibraryA("ucrtbase.dll");
    beginthreadex_fn begin = ucrt == NULL ? NULL : (beginthreadex_fn) (void *) GetProcAddress(ucrt, "_beginthreadex");
    if (begin == NULL) {
        die("finding ucrtbase's _beginthreadex");
    }
    return (HANDLE) begin(NULL, 0, (crt_start_fn) (void *) worker_main, w, 0, NULL);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: unwind_shapes DUMP_PATH\n");
        return 2;
    }
    out = fopen(argv[1], "wb");
    if (out == NULL) {
        die("opening the dump");
    }
    for (int i = 0; i < WORKER_COUNT; i++) {
        workers[i].thread = workers[i].by_crt ? start_by_crt(&workers[i])
                                              : CreateThread(NULL, 0, worker_main, &workers[i], 0, NULL);
        if (workers[i].thread == NULL) {
            die(workers[i].by_crt ? "_beginthreadex" : "CreateThread");
        }
    }
    HANDLE controller = CreateThread(NULL, 0, controller_main, NULL, 0, NULL);
    if (controller == NULL) {
        die("CreateThread");
    }
    WaitForSingleObject(controller, INFINITE);
    for (int i = 0; i < WORKER_COUNT; i++) {
        WaitForSingleObject(workers[i].thread, INFINITE);
    }
    if (fclose(out) != 0) {
        die("closing the dump");
    }
    printf("dump written\n");
    return 0;
}
