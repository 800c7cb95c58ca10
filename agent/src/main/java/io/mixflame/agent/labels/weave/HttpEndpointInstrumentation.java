package io.mixflame.agent.labels.weave;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * The request entry and exit of the HTTP servers applications run, woven so that each request's samples carry its
 * {@code endpoint}: the JDK's {@code com.sun.net.httpserver} ({@link HttpServerChainAdvice}) and the Servlet API in
 * both namespaces ({@link JakartaServletAdvice}; {@link JavaxServletAdvice} where the application has Servlet 4.0
 * or later). Classes are woven as they load and, when the agent comes later, the loaded ones are retransformed; only
 * classes that are present are touched. A class that cannot be woven is logged once and left as it is. Installed
 * once per JVM: after profiling stops the woven code calls an empty bridge and records nothing.
 *
 * <p>A transformer of its own that looks at three class names, with Byte Buddy's {@code Advice} to weave, rather
 * than Byte Buddy's {@code AgentBuilder}: the builder's construction reaches for {@code sun.misc.Unsafe}, which
 * JDK 24 and later warn about on the application's stderr, and its matchers would run at every class load.
 *
 * <p>This package and Byte Buddy are in a jar of their own inside the profiler's ({@code WeavingLoader}), opened
 * only when {@code labels} asks for HTTP labels: Byte Buddy's three thousand classes would otherwise be in the
 * directory of the jar every profiled JVM keeps open.
 */
public final class HttpEndpointInstrumentation {
    private static EndpointTransformer transformer;

    private HttpEndpointInstrumentation() {
    }

    /** Weaves the servers once per JVM; {@code bridge} is the bootstrap loader's label bridge the advice calls. */
    public static synchronized void installOnce(Instrumentation instrumentation, Class<?> bridge) {
        if (transformer != null) {
            return;
        }
        transformer = new EndpointTransformer(instrumentation, bridge.getModule());
        instrumentation.addTransformer(transformer, true);
        AdviceWeaving.retransformLoaded(instrumentation, EndpointTransformer::woven, "labels");
    }

    /** Classes woven and classes that could not be, so far. */
    public static synchronized String describe() {
        if (transformer == null) {
            return "";
        }
        int failed = transformer.failed();
        return transformer.woven() + " server classes woven" + (failed == 0 ? "" : ", " + failed + " failed");
    }

    /** Gives {@code module} (an instrumented class's) a read edge to the bridge's, which named modules lack. */
    static void readBridge(Instrumentation instrumentation, Module module, Module bridge) {
        if (module != null && module.isNamed() && !module.canRead(bridge)) {
            instrumentation.redefineModule(module, Set.of(bridge), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }
}
