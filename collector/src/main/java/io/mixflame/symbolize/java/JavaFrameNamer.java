package io.mixflame.symbolize.java;

import io.mixflame.hotspot.BlobKind;
import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.hotspot.JavaMethod;
import io.mixflame.hotspot.InlinedScope;
import io.mixflame.profile.FrameType;
import io.mixflame.unwind.WalkedStack;
import java.util.List;

/**
 * Names the Java and stub frames of a walk: an interpreted frame is one method at one bci; a compiled frame is the
 * chain of methods inlined at its pc, innermost first; a stub is named by the JVM's name for it (see
 * {@link HotSpotVm#stubName}).
 */
public final class JavaFrameNamer {

    /** One Java method frame as named. */
    public record JavaFrame(JavaMethod method, int bci, int line, Type type) {
    }

    /** How a Java frame ran. */
    public enum Type {
        INTERPRETED, C1_COMPILED, C2_COMPILED, INLINED, NATIVE_WRAPPER;

        /** The kind of frame a profile shows for it (a native method's wrapper is JIT-compiled code). */
        public FrameType profileType() {
            return switch (this) {
                case INTERPRETED -> FrameType.INTERPRETED;
                case C1_COMPILED -> FrameType.C1_COMPILED;
                case INLINED -> FrameType.INLINED;
                case C2_COMPILED, NATIVE_WRAPPER -> FrameType.JIT_COMPILED;
            };
        }
    }

    /** Receives the frames of one walked frame, innermost first. */
    public interface Sink {
        void javaFrame(JavaFrame frame);

        void stub(String name);

        void unnamed(long pc);

        /** A Java frame whose method's class was unloaded before it could be named. */
        void unloaded(long pc);
    }

    private final HotSpotVm vm;

    public JavaFrameNamer(HotSpotVm vm) {
        this.vm = vm;
    }

    /** Names frame {@code i} of a walk (which must be of a Java or stub kind). */
    public void name(WalkedStack stack, int i, Sink sink) {
        switch (stack.kind(i)) {
            case WalkedStack.JAVA_INTERPRETED -> {
                JavaMethod m = vm.method(stack.detailA(i));
                if (m == null) {
                    sink.unnamed(stack.pc(i));
                    return;
                }
                if (m.isUnloaded()) {
                    sink.unloaded(stack.pc(i));
                    return;
                }
                int bci = vm.bci(stack.detailA(i), stack.detailB(i));
                sink.javaFrame(new JavaFrame(m, bci, bci < 0 ? 0 : m.lineOf(bci), Type.INTERPRETED));
            }
            case WalkedStack.JAVA_COMPILED -> nameCompiled(stack, i, sink);
            case WalkedStack.JVM_STUB -> {
                long pc = stack.pc(i) - (stack.isCallSite(i) ? 1 : 0);
                CodeBlobInfo blob = vm.blobAt(pc);
                sink.stub(blob == null ? "[stub]" : vm.stubName(blob, pc));
            }
            default -> sink.unnamed(stack.pc(i));
        }
    }

    private void nameCompiled(WalkedStack stack, int i, Sink sink) {
        long pc = stack.detailB(i);
        CodeBlobInfo blob = vm.blobAt(stack.isCallSite(i) ? pc - 1 : pc);
        if (blob == null || !blob.isJava()) {
            sink.unnamed(stack.pc(i));
            return;
        }
        Type outer = blob.kind() == BlobKind.NATIVE_WRAPPER ? Type.NATIVE_WRAPPER
                : blob.compLevel() >= 1 && blob.compLevel() <= 3 ? Type.C1_COMPILED : Type.C2_COMPILED;
        List<InlinedScope> scopes = vm.scopes(blob, pc);
        if (scopes.isEmpty()) {
            JavaMethod m = vm.method(blob.method());
            if (m == null) {
                sink.unnamed(stack.pc(i));
            } else if (m.isUnloaded()) {
                sink.unloaded(stack.pc(i));
            } else {
                sink.javaFrame(new JavaFrame(m, -1, 0, outer));
            }
            return;
        }
        for (int s = 0; s < scopes.size(); s++) {
            InlinedScope scope = scopes.get(s);
            JavaMethod m = vm.method(scope.method());
            if (m == null) {
                sink.unnamed(stack.pc(i));
                continue;
            }
            if (m.isUnloaded()) {
                sink.unloaded(stack.pc(i));
                continue;
            }
            Type type = s == scopes.size() - 1 ? outer : Type.INLINED;
            sink.javaFrame(new JavaFrame(m, scope.bci(), scope.bci() < 0 ? 0 : m.lineOf(scope.bci()), type));
        }
    }
}
