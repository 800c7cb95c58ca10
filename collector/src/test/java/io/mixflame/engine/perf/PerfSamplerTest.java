package io.mixflame.engine.perf;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.CapturedThread;
import io.mixflame.capture.perf.RawSample;
import io.mixflame.capture.perf.StackCopyGrowth;
import io.mixflame.capture.perf.UserRegisters;
import io.mixflame.image.FixedModuleMap;
import io.mixflame.image.ModuleSnapshot;
import io.mixflame.process.MemoryMapping;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerfSamplerTest {
    private static final long STACK_LOW = 0x7f00_0000_0000L;
    private static final long STACK_HIGH = STACK_LOW + 0x10_0000;

    /**
     * A sample's stack region is taken from the process's mappings as the sampler hands it over, not when the walker
     * gets to it: by then its thread may have ended and its stack been unmapped, and a walk without bounds stops at
     * its first frame.
     */
    @Test
    void eachSampleCarriesItsStackRegionAsMappedWhenItWasDrained() {
        MemoryMapping stack = new MemoryMapping(STACK_LOW, STACK_HIGH, true, true, false, 0, 0, "");
        FixedModuleMap maps = new FixedModuleMap(new ModuleSnapshot(List.of(stack), List.of()), "libjvm.so");
        SamplePool pool = new SamplePool(256, 0, 100);
        PerfSampler sampler = new PerfSampler(new PerfRun(2), pool, new DrainPacing(10_000_000L, 1 << 20, 256, 64),
                new StackCopyGrowth(8192, 16), new UnwalkedSamples(), new PerfEngineCosts(0), null, 0, maps);

        sampler.accept(sample(7, STACK_HIGH - 0x2000));
        sampler.accept(sample(8, STACK_HIGH + 0x2000));

        CapturedThread inStack = pool.next();
        assertThat(inStack.tid()).isEqualTo(7);
        assertThat(inStack.hasStackRegion()).as("a sample whose sp lies in a mapped stack").isTrue();
        assertThat(inStack.stackLow()).isEqualTo(STACK_LOW);
        assertThat(inStack.stackHigh()).isEqualTo(STACK_HIGH);
        CapturedThread elsewhere = pool.next();
        assertThat(elsewhere.tid()).isEqualTo(8);
        assertThat(elsewhere.hasStackRegion()).as("a sample whose sp lies in no mapping the process has").isFalse();
    }

    private static RawSample sample(int tid, long sp) {
        RawSample s = new RawSample(256);
        s.tid = tid;
        s.time = 1_000L * tid;
        s.hasRegisters = true;
        s.registers[UserRegisters.SP_SLOT] = sp;
        s.registers[UserRegisters.PC_SLOT] = 0x40_1000L;
        s.stackLength = 64;
        return s;
    }
}
