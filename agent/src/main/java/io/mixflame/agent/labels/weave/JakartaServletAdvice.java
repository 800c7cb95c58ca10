package io.mixflame.agent.labels.weave;

import io.mixflame.bridge.LabelBridge;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import net.bytebuddy.asm.Advice;

/**
 * Woven into {@code jakarta.servlet.http.HttpServlet.service(ServletRequest, ServletResponse)}, where every HTTP
 * servlet's request enters (Jetty, Tomcat, Undertow): {@code endpoint} = the pattern the request was mapped by
 * ({@code /orders/*}, never the URI with its ids) until the servlet returns; a forward or include to another servlet
 * labels its part with that servlet's pattern.
 */
final class JakartaServletAdvice {
    private JakartaServletAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static long enter(@Advice.Argument(0) ServletRequest request) {
        if (request instanceof HttpServletRequest http) {
            HttpServletMapping mapping = http.getHttpServletMapping();
            if (mapping != null && mapping.getPattern() != null) {
                return LabelBridge.enter(LabelBridge.ENDPOINT, mapping.getPattern());
            }
        }
        return 0;
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter long token) {
        LabelBridge.exit(token);
    }
}
