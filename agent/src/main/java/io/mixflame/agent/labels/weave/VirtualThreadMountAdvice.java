package io.mixflame.agent.labels.weave;

import io.mixflame.bridge.LabelBridge;
import net.bytebuddy.asm.Advice;

/**
 * Woven into {@code java.lang.VirtualThread.mount()}: once a virtual thread is on its carrier, the bridge is told, so
 * that the carrier's samples carry the virtual thread's labels and span. Errors in the advice are swallowed.
 */
final class VirtualThreadMountAdvice {
    private VirtualThreadMountAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    static void exit() {
        LabelBridge.mounted();
    }
}
