package io.mixflame.engine;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.capture.proc.BlockedThreadState;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.VmReader;
import io.mixflame.process.ProcessMemory;
import io.mixflame.profile.Frame;
import io.mixflame.profile.SampleSink;
import io.mixflame.profile.FrameType;
import io.mixflame.profile.NativeModule;
import io.mixflame.image.index.ModuleIndexStore;
import io.mixflame.symbolize.KernelSymbolIndex;
import io.mixflame.symbolize.KernelSymbols;
import io.mixflame.cache.LongKeyedCache;
import io.mixflame.image.LoadedModule;
import io.mixflame.image.ModuleMap;
import io.mixflame.process.ThreadSource;
import io.mixflame.symbolize.ProfileFrameNamer;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.chain.UnwinderChain;
import io.mixflame.unwind.WalkedStack;
import io.mixflame.unwind.hotspot.LastJavaFrameResume;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Turns one perf sample, or one capture of a thread blocked in the kernel, into the profile's frames, root first:
 * the user stack walked from the registers and stack copy (HotSpot, DWARF and frame-pointer unwinders), named; the
 * kernel callchain on top; the thread's name at the root when asked. Used by one thread.
 */
public final class SampleStackBuilder {
    private static final int KERNEL_CACHE = 8192;
    private static final int BLOCKED_STACK_BYTES = 64 * 1024;

    private final ModuleMap modules;
    private final HotSpotVm vm;
    private final StackMemory stack;
    /** The capture of a blocked thread, reused; made at the first (wall-clock profiles only: CPU ones never block). */
    private CapturedThread blocked;
    private final UnwindContext context;
    private final NativeStackWalker walker;
    private final ProfileFrameNamer namer;
    private final WalkedStack walked = new WalkedStack();
    private final ThreadNames threadNames;
    private final ThreadSource threads;
    private final LongKeyedCache<Frame> kernelFrames = new LongKeyedCache<>(KERNEL_CACHE);
    private KernelSymbols kernelSymbols;
    private Frame[] scratch = new Frame[256];
    private final LastJavaFrameResume resume;
    private boolean codeHistory;
    /** Whether the last walk broke after reading the stack above its copy: see {@link #copyTooShort()}. */
    private boolean copyTooShort;

    /**
     * A builder for a process, whatever its system.
     *
     * @param modules its module map, read at least once
     * @param memory  its memory
     * @param threads its threads, for their names
     */
    public SampleStackBuilder(ModuleMap modules, ProcessMemory memory, ThreadSource threads) {
        this.modules = modules;
        this.vm = HotSpotVm.attach(modules, new VmReader(memory)).orElse(null);
        this.stack = new StackMemory(memory);
        this.context = new UnwindContext(stack, modules);
        this.walker = UnwinderChain.walker(vm);
        this.resume = vm == null ? null : new LastJavaFrameResume(vm);
        this.namer = new ProfileFrameNamer(modules, vm);
        this.threadNames = new ThreadNames(threads, vm == null ? null : vm.threadNames(new VmReader(memory)), modules);
        this.threads = threads;
    }

    /**
     * The native modules the stacks built so far ran in, with their paths, the process's main executable first; safe
     * to call from any thread.
     */
    public List<NativeModule> touchedModules() {
        return namer.touchedModules().list(modules.mainExecutable());
    }

    /**
     * Reads the symbols of the libraries every JVM stack passes through (libjvm, libc) now, before sampling starts,
     * rather than while the first samples wait.
     */
    public void warmUp() {
        for (LoadedModule m : modules.modules()) {
            if (m == modules.jvmLibrary() || m.image().name().equals("libc.so.6")) {
                m.image().symbols();
            }
        }
    }

    /**
     * Whether samples are walked by the code cache as it was at their time ({@link HotSpotVm#sampleTakenAt}): for the
     * perf engine's walker, whose samples wait in rings and a pool. Off by default: an engine that walks what it
     * just captured gains nothing from the censuses.
     */
    public void keepCodeHistory(boolean keep) {
        codeHistory = keep;
    }

    /**
     * Has the code cache's history taken ahead of the walker by a native thread while samples wait in the rings whose
     * metadata pages are given ({@link HotSpotVm#keepHistoryAhead}); with {@link #keepCodeHistory} on.
     *
     * @return null when it is, else why not in one line
     */
    public String keepCodeHistoryAhead(long[] watchedRings) {
        return vm == null ? "no HotSpot JVM is read" : vm.keepHistoryAhead(watchedRings);
    }

    /** The walker waits for samples: none is late meanwhile ({@link HotSpotVm#walkerWaiting}). */
    public void walkerWaiting() {
        if (vm != null) {
            vm.walkerWaiting();
        }
    }

    /** Stops the history taken ahead; with {@code free}, once no walker can walk again ({@link HotSpotVm}). */
    public void stopCodeHistoryAhead(boolean free) {
        if (vm != null) {
            vm.stopHistoryAhead(free);
        }
    }

    /** Whether Java frames carry the line each sample was at ({@link io.mixflame.engine.SamplingSettings#lines}). */
    public void recordLines(boolean lines) {
        namer.recordLines(lines);
    }

    /**
     * What the code cache's history did (see {@link HotSpotVm#historyNote}), for the cost note; null where it is not
     * kept. Its counts are read without a lock, from any thread.
     */
    public String codeHistoryNote() {
        return vm == null ? null : vm.historyNote();
    }

    /** Whether Java frames are named (the process's JVM could be read). */
    public boolean namesJava() {
        return vm != null;
    }

    /**
     * The frames of a thread blocked in the kernel, captured without stopping it, root first in {@link #frames()},
     * with {@code leaf} (its state) on top.
     *
     * @return the depth, or -1 when the thread is running or moved during the capture
     */
    public int buildBlocked(int tid, BlockedThreadCapture capture, boolean threadRoot, Frame leaf) throws IOException {
        if (blocked == null) {
            blocked = new CapturedThread(BLOCKED_STACK_BYTES);
        }
        Optional<BlockedThreadState> state = capture.capture(tid, modules::stackRegionContaining, blocked);
        if (state.isEmpty()) {
            return -1;
        }
        context.load(blocked);
        if (vm != null) {
            vm.sampleTakenAt(0);
        }
        walk(tid);
        if (!capture.unchanged(tid, state.get())) {
            return -1;
        }
        int named = namer.name(walked);
        Frame[] leafFirst = namer.frames();
        int depth = named + (threadRoot ? 2 : 1);
        ensure(depth);
        int i = 0;
        if (threadRoot) {
            scratch[i++] = threadNames.frame(tid);
        }
        for (int k = named - 1; k >= 0; k--) {
            scratch[i++] = leafFirst[k];
        }
        scratch[i++] = leaf;
        return i;
    }

    /** The modules of the process, for captures that need its memory maps. */
    public ModuleMap modules() {
        return modules;
    }

    /**
     * Takes threads' names first from what they told as they started and ended ({@link ThreadLifeNames}), from now
     * on: for the profiler's own process, where the JVM tells them.
     */
    public void hearThreadLife(ThreadLifeNames told) {
        threadNames.hear(told);
    }

    /**
     * Takes what threads told as they started and ended since the last take (names, and stacks for the module map):
     * for a sampler that found a stack pointer in no stack it knows. How many were taken; from any thread.
     */
    public int takeTold() {
        return threadNames.takeTold();
    }

    /** The root frame of a thread, {@code [name tid=N]}, made once per name. */
    public Frame threadFrame(int tid) {
        return threadNames.frame(tid);
    }

    /**
     * What another thread uses to take the names of threads while they live (see {@link ThreadNames}), reading through
     * {@code own}, a reader of the same process that no other thread uses. Null when the process has no JVM that could
     * be read.
     */
    public ThreadNameRecorder threadNameRecorder(ProcessMemory own) {
        if (vm == null) {
            return null;
        }
        return new ThreadNameRecorder(vm.threadNames(new VmReader(own)), threadNames, threads);
    }

    /**
     * Renames in {@code sink} the root frames of threads first named provisionally whose Java name was found since:
     * call it after building a stack with thread roots and before adding that stack.
     */
    public void renameRoots(SampleSink sink) {
        threadNames.renameRoots(sink);
    }

    /**
     * Asks the JVM again for the Java names of threads named provisionally (see {@link ThreadNames}): for engines
     * that run no {@link ThreadNameRecorder}; the walker's thread.
     */
    public void retryProvisionalNames() {
        threadNames.retryProvisional();
    }

    /** The name of a thread: its Java name, else the kernel's. */
    public String threadName(int tid) {
        return threadNames.name(tid);
    }

    private void ensure(int depth) {
        if (scratch.length < depth) {
            scratch = new Frame[Math.max(depth, scratch.length * 2)];
        }
    }

    /** The frames of a captured thread, root first, in {@link #frames()}; returns the depth. */
    public int build(CapturedThread s, boolean threadRoot) {
        int named = 0;
        copyTooShort = false;
        if (s.hasUserContext()) {
            context.load(s);
            if (vm != null) {
                // A sample may be walked seconds after it was taken: its code is looked up as it was then.
                vm.sampleTakenAt(codeHistory ? s.time() : 0);
            }
            walk((int) s.tid());
            named = namer.name(walked);
        }
        Frame[] leafFirst = namer.frames();
        int kernel = s.kernelDepth();
        int depth = named + kernel + (threadRoot ? 1 : 0) + 1;
        ensure(depth);
        int i = 0;
        if (threadRoot) {
            scratch[i++] = threadNames.frame((int) s.tid());
        }
        for (int k = named - 1; k >= 0; k--) {
            scratch[i++] = leafFirst[k];
        }
        for (int k = kernel - 1; k >= 0; k--) {
            scratch[i++] = kernelFrame(s.kernelFrame(k));
        }
        if (i == (threadRoot ? 1 : 0)) {
            scratch[i++] = Frame.UNKNOWN;
        }
        return i;
    }

    /**
     * Walks the loaded capture; where the walk breaks in native code (no unwind data, a frame pointer used for
     * data) and the JVM recorded where the thread left Java, the Java part is walked from there after a marker of
     * the frames that were skipped, so that a break below Java never loses its callers.
     */
    private void walk(int tid) {
        walker.walk(context, walked);
        // Judged on the walk from the sample alone: the resumed part reads the stack far out, where the copy never
        // reaches, and a walk that broke and was resumed still lost the frames in between.
        boolean readAbove = stack.readAboveCopy();
        boolean broken = walked.broken();
        if (resume != null && resume.resume(walker, context, walked, tid)) {
            broken = true;
        }
        copyTooShort = readAbove && broken;
    }

    /**
     * Whether the last build's walk broke (or had to be resumed from the thread's last Java frame) after reading the
     * thread's stack above the end of the sample's copy: what it read there was the stack as it is now, not as it was
     * at the sample, so a larger copy would likely have let it through.
     */
    public boolean copyTooShort() {
        return copyTooShort;
    }

    /** The frames the last build produced. */
    public Frame[] frames() {
        return scratch;
    }

    private Frame kernelFrame(long address) {
        Frame f = kernelFrames.get(address);
        if (f == null) {
            if (kernelSymbols == null) {
                kernelSymbols = KernelSymbolIndex.load(ModuleIndexStore.shared());
            }
            f = new Frame(kernelSymbols.name(address), FrameType.KERNEL);
            kernelFrames.put(address, f);
        }
        return f;
    }
}
