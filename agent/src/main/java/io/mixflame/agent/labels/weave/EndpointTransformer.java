package io.mixflame.agent.labels.weave;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Weaves the label advice into the three classes where HTTP requests enter, as they are loaded or retransformed;
 * every other class passes by a comparison of its name. The advice's class file is read, never loaded: its types
 * (the servlet API) are the application's, which the profiler's loader cannot see.
 */
final class EndpointTransformer implements ClassFileTransformer {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointTransformer.class);
    private static final String JDK_CHAIN = "com/sun/net/httpserver/Filter$Chain";
    private static final String JAKARTA = "jakarta/servlet/http/HttpServlet";
    private static final String JAVAX = "javax/servlet/http/HttpServlet";
    /** Servlet 4.0's mapping type: a javax servlet API without it has no pattern to label with. */
    private static final String JAVAX_MAPPING = "javax.servlet.http.HttpServletMapping";
    private static final int MAX_LOGGED = 16;

    private final Instrumentation instrumentation;
    private final Module bridge;
    private final ClassFileLocator advice = ClassFileLocator.ForClassLoader.of(EndpointTransformer.class.getClassLoader());
    private final AtomicInteger woven = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final Set<String> logged = Collections.synchronizedSet(new HashSet<>());

    EndpointTransformer(Instrumentation instrumentation, Module bridge) {
        this.instrumentation = instrumentation;
        this.bridge = bridge;
    }

    /** Whether the class of internal name {@code name} is one this transformer weaves. */
    static boolean woven(String name) {
        return name.equals(JDK_CHAIN) || name.equals(JAKARTA) || name.equals(JAVAX);
    }

    int woven() {
        return woven.get();
    }

    int failed() {
        return failed.get();
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain domain, byte[] classFile) {
        if (className == null || !woven(className)) {
            return null;
        }
        try {
            ClassFileLocator target = loader == null ? ClassFileLocator.ForClassLoader.ofBootLoader()
                    : ClassFileLocator.ForClassLoader.of(loader);
            Class<?> adviceClass;
            ElementMatcher<? super MethodDescription> methods;
            switch (className) {
                case JDK_CHAIN -> {
                    adviceClass = HttpServerChainAdvice.class;
                    methods = named("doFilter").and(takesArguments(1));
                }
                case JAKARTA -> {
                    adviceClass = JakartaServletAdvice.class;
                    methods = serviceOf("jakarta.servlet.");
                }
                default -> {
                    if (!target.locate(JAVAX_MAPPING).isResolved()) {
                        return null;
                    }
                    adviceClass = JavaxServletAdvice.class;
                    methods = serviceOf("javax.servlet.");
                }
            }
            byte[] result = weave(className.replace('/', '.'), classFile, target, adviceClass, methods);
            HttpEndpointInstrumentation.readBridge(instrumentation, module, bridge);
            woven.incrementAndGet();
            LOG.debug("labels: woven {}", className);
            return result;
        } catch (Throwable e) {
            // Never the application's problem: the class loads as it is.
            failed.incrementAndGet();
            if (logged.size() < MAX_LOGGED && logged.add(className)) {
                LOG.warn("labels: {} could not be woven and is left as it is: {}", className.replace('/', '.'),
                        e.toString());
            }
            return null;
        }
    }

    private byte[] weave(String name, byte[] classFile, ClassFileLocator target, Class<?> adviceClass,
                         ElementMatcher<? super MethodDescription> methods) {
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, classFile), advice,
                target);
        TypePool pool = TypePool.Default.of(locator);
        TypeDescription type = pool.describe(name).resolve();
        TypeDescription adviceType = pool.describe(adviceClass.getName()).resolve();
        return new ByteBuddy()
                .with(TypeValidation.DISABLED)
                .redefine(type, locator)
                .visit(Advice.to(adviceType, locator).on(methods))
                .make()
                .getBytes();
    }

    private static ElementMatcher.Junction<MethodDescription> serviceOf(String servletPackage) {
        return named("service").and(takesArguments(2))
                .and(takesArgument(0, named(servletPackage + "ServletRequest")))
                .and(takesArgument(1, named(servletPackage + "ServletResponse")));
    }
}
