package io.mixflame.examples.bench;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.proc.BlockedThreadCapture;
import io.mixflame.capture.proc.BlockedThreadState;
import io.mixflame.process.linux.LinuxProcessMemory;
import io.mixflame.image.ModuleCache;
import io.mixflame.symbolize.NativeSymbolizer;
import io.mixflame.image.linux.ProcModuleMap;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.chain.UnwinderChain;
import io.mixflame.unwind.WalkedStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The native walk over a real captured stack: a thread of this JVM parked in {@code Object.wait()}, captured once
 * from its {@code /proc} syscall line (its stack copied), then walked again and again from that capture. The score
 * is per walk; the walk's frame count is printed at setup so that the time per frame can be derived.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class NativeWalkBenchmark {
    private final Object lock = new Object();
    private Thread waiter;
    private LinuxProcessMemory memory;
    private ProcModuleMap modules;
    private StackMemory stack;
    private UnwindContext context;
    private NativeStackWalker walker;
    private NativeSymbolizer symbolizer;
    private final WalkedStack walked = new WalkedStack();
    private final CapturedThread captured = new CapturedThread(64 * 1024);

    @Setup(Level.Trial)
    public void capture() throws Exception {
        waiter = new Thread(() -> {
            synchronized (lock) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "bench-waiter");
        waiter.setDaemon(true);
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.sleep(5);
        }
        long pid = ProcessHandle.current().pid();
        long tid = threadNamed(pid, "bench-waiter");
        memory = LinuxProcessMemory.self();
        modules = new ProcModuleMap(pid, memory, ModuleCache.shared());
        modules.refresh();
        stack = new StackMemory(memory);
        context = new UnwindContext(stack, modules);
        Optional<BlockedThreadState> state = new BlockedThreadCapture(pid, memory, 64 * 1024)
                .capture(tid, modules::stackRegionContaining, captured);
        if (state.isEmpty()) {
            throw new IllegalStateException("bench-waiter is not blocked");
        }
        // Native frames only: the benchmark measures the native walk, so the chain is the JVM-less one.
        walker = UnwinderChain.walker(null);
        symbolizer = new NativeSymbolizer(modules);
        walk();
        System.out.println("\n[walk] " + walked.size() + " frames, ended " + walked.end());
    }

    private void walk() {
        context.load(captured);
        walker.walk(context, walked);
    }

    @Benchmark
    public int walkOnly() {
        walk();
        return walked.size();
    }

    @Benchmark
    public void walkAndSymbolize(Blackhole hole) {
        walk();
        for (int i = 0; i < walked.size(); i++) {
            if (walked.kind(i) == WalkedStack.CODE) {
                hole.consume(symbolizer.symbolize(walked.pc(i), walked.isCallSite(i)));
            }
        }
    }

    @TearDown(Level.Trial)
    public void release() {
        waiter.interrupt();
        memory.close();
    }

    private static long threadNamed(long pid, String name) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                if (Files.readString(task.resolve("comm")).strip().equals(name)) {
                    return Long.parseLong(task.getFileName().toString());
                }
            }
        }
        throw new IllegalStateException("no thread " + name);
    }
}
