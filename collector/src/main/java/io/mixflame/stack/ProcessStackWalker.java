package io.mixflame.stack;

import io.mixflame.capture.CaptureMethod;
import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.ThreadCapture;
import io.mixflame.capture.ThreadCaptureException;
import io.mixflame.capture.HostRegisters;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.InlinedScope;
import io.mixflame.hotspot.JavaMethod;
import io.mixflame.hotspot.JavaThreadInfo;
import io.mixflame.hotspot.VmReader;
import io.mixflame.image.ModuleMap;
import io.mixflame.platform.TargetProcess;
import io.mixflame.platform.host.TargetProcesses;
import io.mixflame.process.OwnPid;
import io.mixflame.process.ProcessMemory;
import io.mixflame.process.ThreadSource;
import io.mixflame.profile.FrameType;
import io.mixflame.symbolize.MixedFrameNamer;
import io.mixflame.profile.Frame;
import io.mixflame.symbolize.NamedFrame;
import io.mixflame.unwind.hotspot.LastJavaFrameResume;
import io.mixflame.symbolize.NativeSymbolizer;
import io.mixflame.symbolize.SymbolizedFrame;
import io.mixflame.symbolize.java.JavaFrameNamer;
import io.mixflame.unwind.NativeStackWalker;
import io.mixflame.unwind.Registers;
import io.mixflame.unwind.StackMemory;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.chain.PeFrameUnwinding;
import io.mixflame.unwind.chain.UnwinderChain;
import io.mixflame.unwind.WalkedStack;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Walks the stacks of one process — this one or another, by pid — Java and native frames in true call order.
 *
 * <pre>{@code
 * try (ProcessStackWalker walker = ProcessStackWalker.attach(pid)) {
 *     for (ThreadSummary t : walker.threads()) {
 *         CallStack stack = walker.capture(t.tid(), CaptureOptions.DEFAULT.withMaxFrames(64));
 *         stack.frames().forEach(f -> System.out.println(f.describe()));
 *     }
 * }
 * }</pre>
 *
 * <p>A thread blocked in the kernel is captured without stopping it (its syscall line in {@code /proc} and its
 * stack through {@code process_vm_readv}); a running thread of another process is stopped for microseconds with
 * ptrace while its registers and stack are copied. Methods are synchronized: one walk at a time per instance.
 */
public final class ProcessStackWalker implements AutoCloseable {
    private static final int STACK_COPY = 256 * 1024;
    private static final int ATTEMPTS = 5;

    private final long pid;
    private final TargetProcess target;
    private final ProcessMemory memory;
    private final ModuleMap modules;
    private final HotSpotVm vm;
    private final NativeStackWalker walker;
    private final NativeSymbolizer natives;
    private final MixedFrameNamer namer;
    private final ThreadCapture threadCapture;
    private final CapturedThread captured = new CapturedThread(STACK_COPY);
    private boolean closed;

    private ProcessStackWalker(long pid, PeFrameUnwinding pe) throws IOException {
        this.pid = pid;
        this.target = TargetProcesses.open(pid);
        this.memory = target.memory();
        this.modules = target.modules();
        this.vm = HotSpotVm.attach(modules, new VmReader(memory)).orElse(null);
        try {
            this.walker = UnwinderChain.walker(vm, pe);
        } catch (IllegalStateException e) {
            target.close();
            throw new IOException(e.getMessage());
        }
        this.natives = new NativeSymbolizer(modules);
        this.namer = new MixedFrameNamer(natives, vm == null ? null : new JavaFrameNamer(vm));
        this.threadCapture = target.threadCapture(STACK_COPY);
    }

    /**
     * Attaches to a process.
     *
     * @throws IOException when the process does not exist or its memory maps cannot be read
     */
    public static ProcessStackWalker attach(long pid) throws IOException {
        return new ProcessStackWalker(pid, PeFrameUnwinding.OWN);
    }

    /**
     * Attaches to a process, its PE frames unwound as {@code pe} says.
     *
     * @throws IOException also when that unwinder is not available here
     */
    public static ProcessStackWalker attach(long pid, PeFrameUnwinding pe) throws IOException {
        return new ProcessStackWalker(pid, pe);
    }

    /** Attaches to the process it runs in. */
    public static ProcessStackWalker attachSelf() throws IOException {
        return new ProcessStackWalker(OwnPid.get(), PeFrameUnwinding.OWN);
    }

    /** The process. */
    public long pid() {
        return pid;
    }

    /** Whether the process runs a HotSpot JVM whose Java frames can be named. */
    public boolean hasJvm() {
        return vm != null;
    }

    /** Every thread of the process, with its Java name and state where it is a Java thread. */
    public synchronized List<ThreadSummary> threads() throws IOException {
        checkOpen();
        Map<Long, JavaThreadInfo> java = new HashMap<>();
        if (vm != null) {
            for (JavaThreadInfo t : vm.javaThreads()) {
                java.put(t.tid(), t);
            }
        }
        List<ThreadSummary> result = new ArrayList<>();
        ThreadSource source = target.threads();
        for (int tid : source.list()) {
            JavaThreadInfo j = java.get((long) tid);
            String name = j != null && j.name() != null ? j.name() : source.name(tid);
            result.add(new ThreadSummary(tid, name == null ? "?" : name, j == null ? null : j.stateName()));
        }
        result.sort((a, b) -> Long.compare(a.tid(), b.tid()));
        return result;
    }

    /** Captures one thread's stack now. */
    public synchronized CallStack capture(long tid, CaptureOptions options) {
        checkOpen();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            CaptureMethod method;
            try {
                method = threadCapture.capture((int) tid, captured);
            } catch (ThreadCaptureException e) {
                return failure(tid, e.getMessage(), options, List.of());
            }
            UnwindContext context = new UnwindContext(new StackMemory(memory), modules);
            context.load(captured);
            WalkedStack walked = new WalkedStack();
            walker.walk(context, walked);
            if (vm != null) {
                new LastJavaFrameResume(vm).resume(walker, context, walked, (int) tid);
            }
            if (!threadCapture.stillAsCaptured((int) tid)) {
                continue;
            }
            List<String> kernel = options.inProcessOnly() ? List.of() : threadCapture.kernelFrames((int) tid);
            return finish(tid, method, walked, kernel, options);
        }
        return failure(tid, "thread " + tid + " kept moving during every capture", options, List.of());
    }

    /** Walks from registers the caller supplies. */
    public synchronized CallStack walk(ThreadContext registers, CaptureOptions options) {
        checkOpen();
        StackMemory stack = new StackMemory(memory);
        if (registers.stack() != null) {
            stack.setCopy(registers.sp(), registers.stack(), registers.stack().length);
        }
        UnwindContext context = new UnwindContext(stack, modules);
        Registers r = context.registers();
        r.set(HostRegisters.PC, registers.pc());
        r.set(HostRegisters.SP, registers.sp());
        if (registers.fp() != 0) {
            r.set(HostRegisters.FP, registers.fp());
        }
        WalkedStack walked = new WalkedStack();
        walker.walk(context, walked);
        return finish(0, CaptureMethod.CALLER_CONTEXT, walked, List.of(), options);
    }

    /** What an address of the process is: module, symbol and displacement, and the Java method for Java code. */
    public synchronized ResolvedAddress resolve(long address) {
        checkOpen();
        if (vm != null && vm.inCodeCache(address)) {
            CodeBlobInfo blob = vm.blobAt(address);
            if (blob != null) {
                if (blob.isJava()) {
                    List<InlinedScope> scopes = vm.scopes(blob, address);
                    long methodPtr = scopes.isEmpty() ? blob.method() : scopes.get(0).method();
                    int bci = scopes.isEmpty() ? -1 : scopes.get(0).bci();
                    JavaMethod m = vm.method(methodPtr);
                    if (m != null && !m.isUnloaded()) {
                        return new ResolvedAddress(address, null, null, blob.codeBegin(), address - blob.codeBegin(),
                                JavaMethod.binaryName(m.holder()), m.name(), bci < 0 ? 0 : m.lineOf(bci));
                    }
                }
                return new ResolvedAddress(address, null, blob.name(), blob.codeBegin(), address - blob.codeBegin(),
                        null, null, 0);
            }
        }
        SymbolizedFrame s = natives.symbolize(address, false);
        return new ResolvedAddress(address, s.module(), s.symbol(), s.symbolStart(), s.displacement(), null, null, 0);
    }

    private CallStack finish(long tid, CaptureMethod method, WalkedStack walked, List<String> kernel,
                             CaptureOptions options) {
        List<StackFrame> all = new ArrayList<>();
        for (String k : kernel) {
            all.add(new StackFrame(FrameType.KERNEL, 0, null, k, 0, null, null, null, 0, 0, 0, 0));
        }
        if (options.addressesOnly()) {
            for (int i = 0; i < walked.size(); i++) {
                all.add(addressFrame(walked, i, options.extendedInfo()));
            }
        } else {
            List<NamedFrame> named = new ArrayList<>();
            namer.name(walked, named);
            for (int i = 0; i < named.size(); i++) {
                all.add(toFrame(named, i, options.extendedInfo(), walked));
            }
        }
        boolean complete = walked.end() == WalkedStack.End.COMPLETED;
        List<StackFrame> page = all.subList(Math.min(options.skip(), all.size()),
                Math.min(all.size(), options.skip() + options.maxFrames()));
        if (!complete && options.failIfIncomplete()) {
            return failure(tid, "incomplete stack: the walk ended with " + walked.end(), options, page, method);
        }
        return new CallStack(tid, method, List.copyOf(page), complete, null);
    }

    private static StackFrame addressFrame(WalkedStack w, int i, boolean extended) {
        FrameType type = switch (w.kind(i)) {
            case WalkedStack.UNKNOWN, WalkedStack.TRUNCATED, WalkedStack.MISSING -> FrameType.MARKER;
            case WalkedStack.JAVA_INTERPRETED -> FrameType.INTERPRETED;
            case WalkedStack.JAVA_COMPILED -> FrameType.JIT_COMPILED;
            case WalkedStack.JVM_STUB -> FrameType.STUB;
            default -> FrameType.NATIVE;
        };
        String marker = w.kind(i) == WalkedStack.UNKNOWN ? Frame.UNKNOWN.name()
                : w.kind(i) == WalkedStack.TRUNCATED ? Frame.TRUNCATED.name()
                : w.kind(i) == WalkedStack.MISSING ? Frame.MISSING.name() : null;
        return new StackFrame(type, w.pc(i), null, marker, 0, null, null, null, 0, extended ? w.sp(i) : 0,
                extended ? w.fp(i) : 0, extended ? returnAddress(w, i) : 0);
    }

    private static long returnAddress(WalkedStack w, int i) {
        for (int j = i + 1; j < w.size(); j++) {
            if (w.isCode(j)) {
                return w.pc(j);
            }
        }
        return 0;
    }

    private static StackFrame toFrame(List<NamedFrame> named, int i, boolean extended, WalkedStack walked) {
        NamedFrame f = named.get(i);
        long ret = 0;
        long fp = 0;
        if (extended) {
            for (int j = i + 1; j < named.size(); j++) {
                if (named.get(j).sp() != f.sp() && named.get(j).pc() != 0) {
                    ret = named.get(j).pc();
                    break;
                }
            }
            for (int k = 0; k < walked.size(); k++) {
                if (walked.sp(k) == f.sp() && walked.pc(k) == f.pc()) {
                    fp = walked.fp(k);
                    break;
                }
            }
        }
        if (f.javaClass() != null) {
            return new StackFrame(f.type(), f.pc(), null, null, 0, JavaMethod.binaryName(f.javaClass()), f.javaMethod(),
                    f.sourceFile(), f.line(), extended ? f.sp() : 0, fp, ret);
        }
        String symbol = f.type() == FrameType.MARKER || f.type() == FrameType.STUB || f.symbolStart() != 0 ? f.name() : null;
        return new StackFrame(f.type(), f.pc(), f.module(), symbol, f.symbolStart() != 0 || f.module() != null ? f.displacement() : 0, null,
                null, null, 0, extended ? f.sp() : 0, fp, ret);
    }

    private CallStack failure(long tid, String error, CaptureOptions options, List<StackFrame> partial) {
        return failure(tid, error, options, partial, CaptureMethod.NONE);
    }

    private static CallStack failure(long tid, String error, CaptureOptions options, List<StackFrame> partial,
                                     CaptureMethod method) {
        return new CallStack(tid, method, options.returnFramesOnError() ? List.copyOf(partial) : List.of(), false, error);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
    }

    /** Releases the native buffers; the walker cannot be used afterwards. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            threadCapture.close();
            target.close();
        }
    }
}
