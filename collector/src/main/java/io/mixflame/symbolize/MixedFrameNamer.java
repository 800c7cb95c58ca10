package io.mixflame.symbolize;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;
import io.mixflame.symbolize.java.JavaFrameNamer;
import io.mixflame.unwind.WalkedStack;
import java.util.List;

/**
 * Names every frame of a walk, native and Java alike, innermost first: native frames by module and symbol, Java
 * frames (through {@link JavaFrameNamer}) by class and method with inlined methods expanded, stubs by name.
 */
public final class MixedFrameNamer {
    private final NativeSymbolizer natives;
    private final JavaFrameNamer java;

    /**
     * @param natives the native symbolizer of the process
     * @param java    the Java namer, or null when the process has no JVM the profiler can read
     */
    public MixedFrameNamer(NativeSymbolizer natives, JavaFrameNamer java) {
        this.natives = natives;
        this.java = java;
    }

    /** Appends the named frames of a walk to {@code out}, innermost first. */
    public void name(WalkedStack stack, List<NamedFrame> out) {
        for (int i = 0; i < stack.size(); i++) {
            byte kind = stack.kind(i);
            long pc = stack.pc(i);
            long sp = stack.sp(i);
            switch (kind) {
                case WalkedStack.UNKNOWN -> out.add(NamedFrame.marker(Frame.UNKNOWN));
                case WalkedStack.TRUNCATED -> out.add(NamedFrame.marker(Frame.TRUNCATED));
                case WalkedStack.MISSING -> out.add(NamedFrame.marker(Frame.MISSING));
                case WalkedStack.CODE -> {
                    SymbolizedFrame s = natives.symbolize(pc, stack.lookupBeforePc(i));
                    out.add(new NamedFrame(FrameType.NATIVE, pc, sp, s.displayName(), s.module(), s.symbolStart(),
                            s.displacement(), null, null, null, null, -1, 0));
                }
                default -> {
                    if (java == null) {
                        out.add(new NamedFrame(FrameType.NATIVE, pc, sp, "[0x" + Long.toHexString(pc) + "]", null, 0, 0,
                                null, null, null, null, -1, 0));
                    } else {
                        java.name(stack, i, new Collector(out, pc, sp));
                    }
                }
            }
        }
    }

    /** Turns the Java namer's callbacks into named frames. */
    private record Collector(List<NamedFrame> out, long pc, long sp) implements JavaFrameNamer.Sink {
        @Override
        public void javaFrame(JavaFrameNamer.JavaFrame f) {
            FrameType type = f.type().profileType();
            out.add(new NamedFrame(type, pc, sp, f.method().holder() + "." + f.method().name(), null, 0, 0,
                    f.method().holder(), f.method().name(), f.method().signature(), f.method().sourceFile(), f.bci(),
                    f.line()));
        }

        @Override
        public void stub(String name) {
            out.add(new NamedFrame(FrameType.STUB, pc, sp, name, null, 0, 0, null, null, null, null, -1, 0));
        }

        @Override
        public void unnamed(long at) {
            out.add(new NamedFrame(FrameType.MARKER, at, sp, Frame.UNKNOWN_JAVA.name(), null, 0, 0, null, null, null,
                    null, -1, 0));
        }

        @Override
        public void unloaded(long at) {
            out.add(new NamedFrame(FrameType.MARKER, at, sp, Frame.UNLOADED_METHOD.name(), null, 0, 0, null, null, null,
                    null, -1, 0));
        }
    }
}
