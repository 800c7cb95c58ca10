package io.mixflame.testsupport;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.VmReader;
import io.mixflame.symbolize.MixedFrameNamer;
import io.mixflame.symbolize.NamedFrame;
import io.mixflame.symbolize.java.JavaFrameNamer;
import io.mixflame.capture.proc.BlockedThreadState;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.process.ProcessMemory;
import io.mixflame.image.ModuleCache;
import io.mixflame.symbolize.NativeSymbolizer;
import io.mixflame.image.ModuleMap;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.symbolize.SymbolizedFrame;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.chain.UnwinderChain;
import io.mixflame.unwind.WalkedStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Walks a blocked thread of another process the way the profiler does, for tests. */
public final class NativeWalk implements AutoCloseable {
    /** One walked frame, named. */
    public record WalkFrame(byte kind, long pc, SymbolizedFrame symbol) {
        public boolean isMarker() {
            return kind != WalkedStack.CODE;
        }
    }

    private final ProcessMemory memory;
    private final ProcModuleMap modules;

    public NativeWalk(long pid) throws java.io.IOException {
        this.memory = new LinuxProcessMemory(pid);
        this.modules = new ProcModuleMap(pid, memory, ModuleCache.shared());
        modules.refresh();
    }

    public ProcModuleMap modules() {
        return modules;
    }

    /**
     * Walks thread {@code tid} while it is blocked with the HotSpot unwinder first in the chain, and names every
     * frame, Java and native; retries a few times if the thread moves during the walk.
     */
    public List<NamedFrame> walkMixed(long tid) throws Exception {
        VmReader reader = new VmReader(memory);
        HotSpotVm vm = HotSpotVm.attach(modules, reader).orElseThrow(() -> new AssertionError("no JVM in " + modules.pid()));
        for (int attempt = 0; attempt < 20; attempt++) {
            StackMemory stack = new StackMemory(memory);
            UnwindContext context = new UnwindContext(stack, modules);
            BlockedThreadCapture capture = new BlockedThreadCapture(modules.pid(), memory, 64 * 1024);
            CapturedThread captured = new CapturedThread(64 * 1024);
            Optional<BlockedThreadState> state = capture.capture(tid, modules::stackRegionContaining, captured);
            if (state.isEmpty()) {
                Thread.sleep(50);
                continue;
            }
            context.load(captured);
            WalkedStack walked = new WalkedStack();
            UnwinderChain.walker(vm).walk(context, walked);
            List<NamedFrame> named = new ArrayList<>();
            new MixedFrameNamer(new NativeSymbolizer(modules), new JavaFrameNamer(vm)).name(walked, named);
            if (capture.unchanged(tid, state.get())) {
                return named;
            }
        }
        throw new AssertionError("thread " + tid + " was never caught blocked");
    }

    /** Walks thread {@code tid} while it is blocked; retries a few times if it moves during the walk. */
    public List<WalkFrame> walkBlocked(long tid) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            StackMemory stack = new StackMemory(memory);
            UnwindContext context = new UnwindContext(stack, modules);
            BlockedThreadCapture capture = new BlockedThreadCapture(modules.pid(), memory, 32 * 1024);
            CapturedThread captured = new CapturedThread(32 * 1024);
            Optional<BlockedThreadState> state = capture.capture(tid, modules::stackRegionContaining, captured);
            if (state.isEmpty()) {
                Thread.sleep(50);
                continue;
            }
            context.load(captured);
            WalkedStack walked = new WalkedStack();
            UnwinderChain.walker(null).walk(context, walked);
            if (!capture.unchanged(tid, state.get())) {
                continue;
            }
            NativeSymbolizer symbolizer = new NativeSymbolizer(modules);
            List<WalkFrame> frames = new ArrayList<>();
            for (int i = 0; i < walked.size(); i++) {
                SymbolizedFrame s = walked.kind(i) == WalkedStack.CODE
                        ? symbolizer.symbolize(walked.pc(i), walked.isCallSite(i)) : null;
                frames.add(new WalkFrame(walked.kind(i), walked.pc(i), s));
            }
            return frames;
        }
        throw new AssertionError("thread " + tid + " was never caught blocked");
    }

    @Override
    public void close() {
        memory.close();
    }
}
