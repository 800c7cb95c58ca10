package io.mixflame.agent.labels.weave;

import io.mixflame.bridge.LabelBridge;
import net.bytebuddy.asm.Advice;

/**
 * Woven into OpenTelemetry's {@code ThreadLocalContextStorage.attach(Context)}, where every context that becomes
 * current on a thread passes (the Java agent's shaded copy and an application's own): the context is told to the
 * bridge once it is current. Errors in the advice are swallowed: the application's call goes on as it was.
 */
final class ContextAttachAdvice {
    private ContextAttachAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit(@Advice.Argument(0) Object context) {
        if (context != null) {
            LabelBridge.context(context);
        }
    }
}
