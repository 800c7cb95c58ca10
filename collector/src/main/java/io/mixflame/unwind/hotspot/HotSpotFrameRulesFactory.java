package io.mixflame.unwind.hotspot;

import io.mixflame.capture.CpuArchitecture;
import io.mixflame.hotspot.HotSpotVm;

/**
 * Makes one processor architecture's {@link HotSpotFrameRules}. Implementations are listed in
 * {@code META-INF/services/io.mixflame.unwind.hotspot.HotSpotFrameRulesFactory}, so that a port to another processor
 * adds its rules and a line there, and the chain's builder picks the ones for the architecture it runs on.
 */
public interface HotSpotFrameRulesFactory {

    /** Whether these rules are HotSpot's frames on {@code architecture}. */
    boolean isFor(CpuArchitecture architecture);

    /** The rules for one JVM, whose code cache and frame constants they read. */
    HotSpotFrameRules create(HotSpotVm vm);
}
