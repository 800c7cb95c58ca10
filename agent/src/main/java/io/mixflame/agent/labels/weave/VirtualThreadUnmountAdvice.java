package io.mixflame.agent.labels.weave;

import io.mixflame.bridge.LabelBridge;
import net.bytebuddy.asm.Advice;

/**
 * Woven into {@code java.lang.VirtualThread.unmount()}: before a virtual thread leaves its carrier, the bridge is
 * told, so that the carrier's next samples no longer carry its labels and span. Errors in the advice are swallowed.
 */
final class VirtualThreadUnmountAdvice {
    private VirtualThreadUnmountAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter() {
        LabelBridge.unmounting();
    }
}
