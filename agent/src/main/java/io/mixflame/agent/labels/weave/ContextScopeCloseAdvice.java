package io.mixflame.agent.labels.weave;

import io.mixflame.bridge.LabelBridge;
import net.bytebuddy.asm.Advice;

/**
 * Woven into {@code ThreadLocalContextStorage.ScopeImpl.close()}, which makes the context before its attach current
 * again: where this call did (the scope was open and is closed now; a scope closed out of order changes nothing),
 * that context is told to the bridge. Errors in the advice are swallowed.
 */
final class ContextScopeCloseAdvice {
    private ContextScopeCloseAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@Advice.FieldValue("closed") boolean closed) {
        return closed;
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(@Advice.Enter boolean closedBefore, @Advice.FieldValue("closed") boolean closed,
                     @Advice.FieldValue("beforeAttach") Object before) {
        if (!closedBefore && closed) {
            LabelBridge.context(before);
        }
    }
}
