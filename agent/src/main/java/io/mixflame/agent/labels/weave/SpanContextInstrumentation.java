package io.mixflame.agent.labels.weave;

import java.lang.instrument.Instrumentation;

/**
 * OpenTelemetry's context storage, woven so that the bridge hears of every context made current on a thread
 * ({@link ContextAttachAdvice}, {@link ContextScopeCloseAdvice}): as its classes load and, when the agent comes later,
 * those loaded already. Without OpenTelemetry nothing is woven and nothing runs. Installed once per JVM: after
 * profiling stops the woven code calls an empty bridge.
 */
public final class SpanContextInstrumentation {
    private static ContextStorageTransformer transformer;

    private SpanContextInstrumentation() {
    }

    /** Weaves the context storages once per JVM; {@code bridge} is the bootstrap loader's label bridge. */
    public static synchronized void installOnce(Instrumentation instrumentation, Class<?> bridge) {
        if (transformer != null) {
            return;
        }
        transformer = new ContextStorageTransformer(instrumentation, bridge.getModule(),
                () -> weaveLoadedVirtualThreads(instrumentation));
        instrumentation.addTransformer(transformer, true);
        AdviceWeaving.retransformLoaded(instrumentation, ContextStorageTransformer::woven, "traces");
    }

    /**
     * The JDK's virtual thread, where it is loaded already when the first context storage is woven: retransformed by
     * a thread of its own, for this runs within a transformation.
     */
    private static void weaveLoadedVirtualThreads(Instrumentation instrumentation) {
        Thread t = new Thread(() -> AdviceWeaving.retransformLoaded(instrumentation,
                ContextStorageTransformer::virtualThread, "traces"), "mixflame-weaving");
        t.setDaemon(true);
        t.start();
    }

    /** Classes woven and classes that could not be, so far. */
    public static synchronized String describe() {
        if (transformer == null) {
            return "";
        }
        int failed = transformer.failed();
        return transformer.woven() + " context classes woven" + (failed == 0 ? "" : ", " + failed + " failed");
    }
}
