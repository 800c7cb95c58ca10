package io.mixflame.agent.labels.weave;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import net.bytebuddy.dynamic.ClassFileLocator;

/**
 * Weaves the context advice into OpenTelemetry's thread-local context storage, as it is loaded or retransformed: the
 * storage and its scope, in every copy of OpenTelemetry (the Java agent's shaded package, an application's own, any
 * other relocation), told by the end of their names; and the mount and unmount of virtual threads (JDK 21 and later).
 * Every other class passes by a comparison of its name.
 */
final class ContextStorageTransformer extends CountingTransformer {
    private static final String STORAGE = "io/opentelemetry/context/ThreadLocalContextStorage";
    private static final String SCOPE = STORAGE + "$ScopeImpl";
    /**
     * Samples name kernel threads: a virtual thread's span is its carrier's while it is mounted there. Woven once a
     * context storage is (without OpenTelemetry nothing is woven).
     */
    private static final String VIRTUAL_THREAD = "java/lang/VirtualThread";

    private final Runnable firstContext;
    /** Whether a context storage was woven: virtual threads are woven only then, for there are spans to carry. */
    private volatile boolean contexts;

    /** @param firstContext run once, when the first context storage has been woven (it must not block) */
    ContextStorageTransformer(Instrumentation instrumentation, Module bridge, Runnable firstContext) {
        super(instrumentation, bridge, "traces");
        this.firstContext = firstContext;
    }

    /** Whether the class of internal name {@code name} is a context storage this transformer weaves. */
    static boolean woven(String name) {
        return name.endsWith(STORAGE) || name.endsWith(SCOPE);
    }

    /** Whether {@code name} is the JDK's virtual thread. */
    static boolean virtualThread(String name) {
        return name.equals(VIRTUAL_THREAD);
    }

    @Override
    boolean weaves(String name) {
        return woven(name) || contexts && virtualThread(name);
    }

    @Override
    byte[] weave(String className, byte[] classFile, ClassFileLocator target) {
        byte[] woven = weaveClass(className, classFile, target);
        if (woven != null && !contexts && woven(className)) {
            contexts = true;
            firstContext.run();
        }
        return woven;
    }

    private byte[] weaveClass(String className, byte[] classFile, ClassFileLocator target) {
        String name = className.replace('/', '.');
        if (className.equals(VIRTUAL_THREAD)) {
            byte[] mounted = AdviceWeaving.weave(name, classFile, target, advice, VirtualThreadMountAdvice.class,
                    named("mount").and(takesArguments(0)));
            return AdviceWeaving.weave(name, mounted, target, advice, VirtualThreadUnmountAdvice.class,
                    named("unmount").and(takesArguments(0)));
        }
        if (className.endsWith(SCOPE)) {
            return AdviceWeaving.weave(name, classFile, target, advice, ContextScopeCloseAdvice.class,
                    named("close").and(takesArguments(0)));
        }
        return AdviceWeaving.weave(name, classFile, target, advice, ContextAttachAdvice.class,
                named("attach").and(takesArguments(1)));
    }
}
