package io.mixflame.unwind.hotspot.x64;

import io.mixflame.capture.CpuArchitecture;
import io.mixflame.capture.x64.X64Architecture;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.unwind.hotspot.HotSpotFrameRules;
import io.mixflame.unwind.hotspot.HotSpotFrameRulesFactory;

/** HotSpot's frames on x86-64, listed as a service so that the chain's builder names no architecture. */
public final class X64FrameRulesFactory implements HotSpotFrameRulesFactory {
    @Override
    public boolean isFor(CpuArchitecture architecture) {
        return architecture instanceof X64Architecture;
    }

    @Override
    public HotSpotFrameRules create(HotSpotVm vm) {
        return new X64FrameRules(vm);
    }
}
