package io.mixflame.stack;

import io.mixflame.capture.CaptureMethod;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import io.mixflame.profile.FrameType;
import io.mixflame.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The public stack-walking API against a child JVM parked in a JIT-compiled chain, and against itself. */
class ProcessStackWalkerTest {
    private static ChildProcess app;
    private static ProcessStackWalker walker;
    private static long chainThread;

    @BeforeAll
    static void startChild() throws Exception {
        app = ChildProcess.java(Path.of(System.getProperty("java.home")), List.of("-Xbatch"),
                "io.mixflame.testapp.ChainApp", "warm");
        app.readUntil("ready");
        chainThread = app.threadNamed("mf-chain");
        walker = ProcessStackWalker.attach(app.pid());
    }

    @AfterAll
    static void stopChild() throws Exception {
        walker.close();
        app.close();
    }

    private static List<String> described(List<StackFrame> frames) {
        return frames.stream().map(f -> f.kind() + " " + f.describe() + " @" + Long.toHexString(f.address())).toList();
    }

    @Test
    void pagingWithSkipReproducesTheFullStack() {
        CallStack full = walker.capture(chainThread, CaptureOptions.DEFAULT);
        assertThat(full.method()).isEqualTo(CaptureMethod.BLOCKED_IN_KERNEL);
        assertThat(full.complete()).isTrue();
        assertThat(full.frames()).hasSizeGreaterThan(20);
        List<StackFrame> paged = new ArrayList<>();
        for (int skip = 0; ; skip += 5) {
            CallStack page = walker.capture(chainThread, CaptureOptions.DEFAULT.withSkip(skip).withMaxFrames(5));
            assertThat(page.frames().size()).isLessThanOrEqualTo(5);
            paged.addAll(page.frames());
            if (page.frames().size() < 5) {
                break;
            }
        }
        assertThat(described(paged)).isEqualTo(described(full.frames()));
    }

    @Test
    void theChainIsThereWithNativeFramesAboveAndBelow() {
        CallStack stack = walker.capture(chainThread, CaptureOptions.DEFAULT);
        List<String> methods = stack.frames().stream().filter(f -> f.javaMethod() != null)
                .map(f -> f.javaClass() + "." + f.javaMethod()).toList();
        assertThat(methods).containsSubsequence("jdk.internal.misc.Unsafe.park",
                "java.util.concurrent.locks.LockSupport.park", "io.mixflame.testapp.ChainApp.c12",
                "io.mixflame.testapp.ChainApp.c1", "io.mixflame.testapp.ChainApp$ChainThread.run");
        assertThat(stack.frames().get(0).kind()).isEqualTo(FrameType.KERNEL);
        assertThat(stack.frames()).anyMatch(f -> "libc.so.6".equals(f.module()));
        assertThat(stack.frames().get(stack.frames().size() - 1).symbol()).endsWith("clone3");
    }

    @Test
    void inProcessOnlyDropsKernelFrames() {
        CallStack all = walker.capture(chainThread, CaptureOptions.DEFAULT);
        CallStack user = walker.capture(chainThread, CaptureOptions.DEFAULT.withInProcessOnly(true));
        assertThat(all.frames()).anyMatch(f -> f.kind() == FrameType.KERNEL);
        assertThat(user.frames()).noneMatch(f -> f.kind() == FrameType.KERNEL);
        assertThat(described(user.frames())).isEqualTo(described(all.frames().stream()
                .filter(f -> f.kind() != FrameType.KERNEL).toList()));
    }

    @Test
    void addressesOnlyGivesTheSameAddressesUnnamed() {
        CallStack named = walker.capture(chainThread, CaptureOptions.DEFAULT.withInProcessOnly(true));
        CallStack raw = walker.capture(chainThread, CaptureOptions.DEFAULT.withInProcessOnly(true).withAddressesOnly(true));
        assertThat(raw.frames()).allMatch(f -> f.javaClass() == null && f.module() == null);
        assertThat(raw.frames().stream().map(StackFrame::address).toList())
                .isEqualTo(named.frames().stream().map(StackFrame::address).distinct().toList());
    }

    @Test
    void extendedInfoGivesStackPointersAndReturnAddresses() {
        CallStack stack = walker.capture(chainThread, CaptureOptions.DEFAULT.withInProcessOnly(true).withExtendedInfo(true));
        List<StackFrame> frames = stack.frames();
        for (int i = 0; i + 1 < frames.size(); i++) {
            assertThat(frames.get(i).sp()).isPositive();
            assertThat(frames.get(i + 1).sp()).isGreaterThanOrEqualTo(frames.get(i).sp());
        }
        assertThat(frames.get(0).returnAddress()).isEqualTo(frames.get(1).address());
    }

    @Test
    void resolveNamesAJitCompiledJavaMethod() {
        CallStack stack = walker.capture(chainThread, CaptureOptions.DEFAULT);
        StackFrame compiled = stack.frames().stream()
                .filter(f -> f.kind() == FrameType.INLINED && "io.mixflame.testapp.ChainApp".equals(f.javaClass()))
                .findFirst().orElseThrow();
        ResolvedAddress resolved = walker.resolve(compiled.address());
        assertThat(resolved.module()).isNull();
        assertThat(resolved.javaClass()).isEqualTo("java.util.concurrent.locks.LockSupport");
        assertThat(resolved.javaMethod()).isEqualTo("park");
        assertThat(resolved.line()).isPositive();
    }

    @Test
    void resolveNamesALibcFunction() throws Exception {
        try (ProcessStackWalker self = ProcessStackWalker.attachSelf()) {
            long getpid = Pointer.nativeValue(NativeLibrary.getInstance("c").getGlobalVariableAddress("getpid"));
            ResolvedAddress r = self.resolve(getpid + 4);
            assertThat(r.module()).isEqualTo("libc.so.6");
            assertThat(r.symbol()).endsWith("getpid");
            assertThat(r.symbolStart()).isEqualTo(getpid);
            assertThat(r.displacement()).isEqualTo(4);
            assertThat(r.javaClass()).isNull();
        }
    }

    @Test
    void anIncompleteWalkFailsWhenAskedAndKeepsItsFramesOnRequest() throws Exception {
        try (ProcessStackWalker self = ProcessStackWalker.attachSelf(); Memory fakeStack = new Memory(4096)) {
            fakeStack.clear();
            fakeStack.setLong(0, 0x1234);
            long getpid = Pointer.nativeValue(NativeLibrary.getInstance("c").getGlobalVariableAddress("getpid"));
            ThreadContext context = new ThreadContext(getpid + 1, Pointer.nativeValue(fakeStack), 0, null);

            CallStack lenient = self.walk(context, CaptureOptions.DEFAULT);
            assertThat(lenient.complete()).isFalse();
            assertThat(lenient.error()).isNull();
            assertThat(lenient.frames()).extracting(StackFrame::symbol).endsWith("[unknown]");

            CallStack strict = self.walk(context, CaptureOptions.DEFAULT.withFailIfIncomplete(true));
            assertThat(strict.error()).startsWith("incomplete stack");
            assertThat(strict.frames()).isEmpty();

            CallStack partial = self.walk(context, CaptureOptions.DEFAULT.withFailIfIncomplete(true)
                    .withReturnFramesOnError(true));
            assertThat(partial.error()).startsWith("incomplete stack");
            assertThat(partial.frames().get(0).symbol()).endsWith("getpid");
            assertThat(partial.method()).isEqualTo(CaptureMethod.CALLER_CONTEXT);
        }
    }

    @Test
    void aRunningThreadOfTheOwnProcessIsAnExplainedError() throws Exception {
        java.util.concurrent.atomic.AtomicLong tid = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        Thread spinner = new Thread(() -> {
            try {
                tid.set(Long.parseLong(java.nio.file.Files.readSymbolicLink(Path.of("/proc/thread-self"))
                        .getFileName().toString()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            long x = 0;
            while (!stop.get()) {
                x += System.nanoTime() & 1;
            }
            tid.set(x == -1 ? 0 : tid.get());
        }, "spinner");
        spinner.start();
        try (ProcessStackWalker self = ProcessStackWalker.attachSelf()) {
            while (tid.get() == 0) {
                Thread.onSpinWait();
            }
            CallStack stack = self.capture(tid.get(), CaptureOptions.DEFAULT);
            assertThat(stack.method()).isEqualTo(CaptureMethod.NONE);
            assertThat(stack.error()).contains("is running");
        } finally {
            stop.set(true);
            spinner.join();
        }
    }
}
