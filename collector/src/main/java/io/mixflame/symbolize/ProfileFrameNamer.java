package io.mixflame.symbolize;

import io.mixflame.image.ModuleMap;
import io.mixflame.cache.LongKeyedCache;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaMethod;
import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.symbolize.java.JavaFrameNamer;
import io.mixflame.unwind.WalkedStack;
import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * Names the frames of a walk as the profile's frames, for the samplers: each distinct frame is named once and then
 * found by its key — a native frame by its pc, an interpreted one by its {@code Method*}, a compiled one by its pc in
 * its code blob — so that a sample of a known stack builds no string and allocates nothing. What a key stands for
 * can change: a library loaded in place of another (the module map's generation), code freed and reused (the blob's
 * start is checked), a class unloaded (the method read again is another object); a cached name is only used while
 * none of these happened. Used by one thread.
 *
 * <p>With {@linkplain #recordLines lines}, a Java frame carries the line its sample was at: a compiled frame's lines
 * follow from its pc as its names do, and an interpreted frame is keyed by its bytecode pointer rather than its
 * method, so a known frame still costs a lookup and no allocation.
 */
public final class ProfileFrameNamer {
    private static final int CACHE_ENTRIES = 16_384;
    private static final Frame UNNAMED = Frame.UNKNOWN_JAVA;
    private static final Frame UNLOADED = Frame.UNLOADED_METHOD;

    private final ModuleMap modules;
    private final NativeSymbolizer natives;
    private final TouchedModules touched = new TouchedModules();
    private final HotSpotVm vm;
    private final JavaFrameNamer java;
    private final LongKeyedCache<Frame> nativeFrames = new LongKeyedCache<>(CACHE_ENTRIES);
    private final LongKeyedCache<InterpretedFrame> interpretedFrames = new LongKeyedCache<>(CACHE_ENTRIES);
    private final LongKeyedCache<CompiledFrames> compiledFrames = new LongKeyedCache<>(CACHE_ENTRIES);
    private final LongKeyedCache<CompiledFrames> stubFrames = new LongKeyedCache<>(CACHE_ENTRIES);
    /** By identity: the method reader hands out one object per live method. */
    private final IdentityHashMap<JavaMethod, Frame[]> methodFrames = new IdentityHashMap<>();
    private int generation;
    private boolean lines;
    private Frame[] out = new Frame[128];
    private int count;

    private record InterpretedFrame(JavaMethod method, Frame frame) {
    }

    /** The frames of one compiled frame, innermost first, and the blob they were named in. */
    private record CompiledFrames(CodeBlobInfo blob, Frame[] frames) {
    }

    /**
     * @param modules the module map of the process
     * @param vm      its JVM, or null when it has none the profiler can read
     */
    public ProfileFrameNamer(ModuleMap modules, HotSpotVm vm) {
        this.modules = modules;
        this.natives = new NativeSymbolizer(modules);
        this.vm = vm;
        this.java = vm == null ? null : new JavaFrameNamer(vm);
        this.generation = modules.generation();
    }

    /** Whether Java frames carry their sampled line from now on; set before the first {@link #name}. */
    public void recordLines(boolean recordLines) {
        if (recordLines != lines) {
            lines = recordLines;
            interpretedFrames.clear();
            compiledFrames.clear();
        }
    }

    /** Names every frame of {@code stack}, innermost first, into {@link #frames()}; returns how many. */
    public int name(WalkedStack stack) {
        if (modules.generation() != generation) {
            generation = modules.generation();
            nativeFrames.clear();
        }
        count = 0;
        for (int i = 0; i < stack.size(); i++) {
            switch (stack.kind(i)) {
                case WalkedStack.UNKNOWN -> add(Frame.UNKNOWN);
                case WalkedStack.TRUNCATED -> add(Frame.TRUNCATED);
                case WalkedStack.MISSING -> add(Frame.MISSING);
                case WalkedStack.CODE -> add(nativeFrame(stack.pc(i), stack.lookupBeforePc(i)));
                case WalkedStack.JAVA_INTERPRETED -> interpreted(stack, i);
                case WalkedStack.JAVA_COMPILED -> inBlob(stack, i, stack.detailB(i), compiledFrames);
                case WalkedStack.JVM_STUB -> inBlob(stack, i, stack.pc(i), stubFrames);
                default -> named(stack, i);
            }
        }
        return count;
    }

    /** The modules that frames were named in so far; safe to read from any thread. */
    public TouchedModules touchedModules() {
        return touched;
    }

    /** The frames of the last {@link #name}, innermost first; valid until the next call. */
    public Frame[] frames() {
        return out;
    }

    private Frame nativeFrame(long pc, boolean callSite) {
        long key = (pc << 1) | (callSite ? 1 : 0);
        Frame f = nativeFrames.get(key);
        if (f == null) {
            SymbolizedFrame s = natives.symbolize(pc, callSite);
            f = Frame.nativeCode(s.displayName(), s.module(), s.moduleOffset());
            nativeFrames.put(key, f);
            touched.add(modules.moduleAt(callSite ? pc - 1 : pc));
        }
        return f;
    }

    private void interpreted(WalkedStack stack, int i) {
        if (java == null) {
            named(stack, i);
            return;
        }
        long methodPtr = stack.detailA(i);
        // The bytecode pointer lies inside the method's code: it says the method and the line.
        long key = lines ? stack.detailB(i) : methodPtr;
        InterpretedFrame cached = interpretedFrames.get(key);
        JavaMethod m = vm.method(methodPtr);
        if (cached != null && cached.method() == m) {
            add(cached.frame());
            return;
        }
        int from = count;
        java.name(stack, i, sink);
        if (m != null && !m.isUnloaded() && count == from + 1) {
            interpretedFrames.put(key, new InterpretedFrame(m, out[from]));
        }
    }

    /** A compiled frame or a stub, named by its pc within its code blob. */
    private void inBlob(WalkedStack stack, int i, long pc, LongKeyedCache<CompiledFrames> cache) {
        if (java == null) {
            named(stack, i);
            return;
        }
        boolean callSite = stack.isCallSite(i);
        long key = (pc << 1) | (callSite ? 1 : 0);
        var blob = vm.blobAt(callSite ? pc - 1 : pc);
        CompiledFrames cached = cache.get(key);
        if (cached != null && blob != null && cached.blob().sameCode(blob)) {
            for (Frame f : cached.frames()) {
                add(f);
            }
            return;
        }
        int from = count;
        java.name(stack, i, sink);
        if (blob != null && !contains(out, from, count, UNLOADED) && !contains(out, from, count, UNNAMED)) {
            cache.put(key, new CompiledFrames(blob, Arrays.copyOfRange(out, from, count)));
        }
    }

    private static boolean contains(Frame[] frames, int from, int to, Frame f) {
        for (int k = from; k < to; k++) {
            if (frames[k] == f) {
                return true;
            }
        }
        return false;
    }

    /** Java frames of a process whose JVM cannot be read, and kinds named nowhere else. */
    private void named(WalkedStack stack, int i) {
        if (java == null) {
            add(new Frame("[0x" + Long.toHexString(stack.pc(i)) + "]", FrameType.NATIVE));
        } else {
            java.name(stack, i, sink);
        }
    }

    /** Turns the Java namer's answers into frames; one instance, made once. */
    private final JavaFrameNamer.Sink sink = new JavaFrameNamer.Sink() {
        @Override
        public void javaFrame(JavaFrameNamer.JavaFrame f) {
            Frame method = frameOf(f.method(), f.type().profileType());
            add(lines ? method.atLine(Math.max(0, f.line())) : method);
        }

        @Override
        public void stub(String name) {
            add(new Frame(name, FrameType.STUB));
        }

        @Override
        public void unnamed(long pc) {
            add(UNNAMED);
        }

        @Override
        public void unloaded(long pc) {
            add(UNLOADED);
        }
    };

    /**
     * The frame of a method run as {@code type}, made once per method and type: a compiled frame's key is its pc,
     * and a hot loop has many, each of which would otherwise build the same name again.
     */
    private Frame frameOf(JavaMethod method, FrameType type) {
        Frame[] byType = methodFrames.get(method);
        if (byType == null) {
            if (methodFrames.size() >= CACHE_ENTRIES) {
                methodFrames.clear();
            }
            byType = new Frame[FrameType.values().length];
            methodFrames.put(method, byType);
        }
        Frame f = byType[type.ordinal()];
        if (f == null) {
            f = Frame.javaMethod(method.holder(), method.name(), type, method.sourceFile(), method.firstLine());
            byType[type.ordinal()] = f;
        }
        return f;
    }

    private void add(Frame f) {
        if (count == out.length) {
            out = Arrays.copyOf(out, count * 2);
        }
        out[count++] = f;
    }
}
