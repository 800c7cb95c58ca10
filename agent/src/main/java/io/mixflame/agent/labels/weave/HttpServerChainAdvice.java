package io.mixflame.agent.labels.weave;

import com.sun.net.httpserver.HttpExchange;
import io.mixflame.bridge.LabelBridge;
import net.bytebuddy.asm.Advice;

/**
 * Woven into {@code com.sun.net.httpserver.Filter.Chain.doFilter}, through which the JDK's server passes every
 * request to its context's filters and handler (lambdas included): the thread has {@code endpoint} = the context's
 * path (as created, never the request's URI) until the chain returns. Errors in the advice are swallowed: the
 * request goes on unlabeled.
 */
final class HttpServerChainAdvice {
    private HttpServerChainAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static long enter(@Advice.Argument(0) HttpExchange exchange) {
        return LabelBridge.enter(LabelBridge.ENDPOINT, exchange.getHttpContext().getPath());
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter long token) {
        LabelBridge.exit(token);
    }
}
