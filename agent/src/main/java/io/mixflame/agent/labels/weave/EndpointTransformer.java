package io.mixflame.agent.labels.weave;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Weaves the label advice into the three classes where HTTP requests enter, as they are loaded or retransformed;
 * every other class passes by a comparison of its name. The advice's class file is read, never loaded: its types
 * (the servlet API) are the application's, which the profiler's loader cannot see.
 */
final class EndpointTransformer extends CountingTransformer {
    private static final String JDK_CHAIN = "com/sun/net/httpserver/Filter$Chain";
    private static final String JAKARTA = "jakarta/servlet/http/HttpServlet";
    private static final String JAVAX = "javax/servlet/http/HttpServlet";
    /** Servlet 4.0's mapping type: a javax servlet API without it has no pattern to label with. */
    private static final String JAVAX_MAPPING = "javax.servlet.http.HttpServletMapping";

    EndpointTransformer(Instrumentation instrumentation, Module bridge) {
        super(instrumentation, bridge, "labels");
    }

    /** Whether the class of internal name {@code name} is one this transformer weaves. */
    static boolean woven(String name) {
        return name.equals(JDK_CHAIN) || name.equals(JAKARTA) || name.equals(JAVAX);
    }

    @Override
    boolean weaves(String name) {
        return woven(name);
    }

    @Override
    byte[] weave(String className, byte[] classFile, ClassFileLocator target) throws java.io.IOException {
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
        return AdviceWeaving.weave(className.replace('/', '.'), classFile, target, advice, adviceClass, methods);
    }

    private static ElementMatcher.Junction<MethodDescription> serviceOf(String servletPackage) {
        return named("service").and(takesArguments(2))
                .and(takesArgument(0, named(servletPackage + "ServletRequest")))
                .and(takesArgument(1, named(servletPackage + "ServletResponse")));
    }
}
