package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.mixflame.capture.perf.PerfSyscalls;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.jfr.JfrEngine;
import io.mixflame.engine.perf.PerfEngine;
import io.mixflame.profile.ProfileAccumulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the kernel refuses perf events, profiling goes on with JFR and the log says why, in one line. */
class PerfFallbackTest {

    /** A kernel with a seccomp filter that answers EPERM. */
    private static final class Refusing implements PerfSyscalls {
        @Override
        public int perfEventOpen(byte[] attr, int tid, long flags) {
            return -1;
        }

        @Override
        public long mmap(int fd, long length) {
            return -22;
        }

        @Override
        public void munmap(long address, long length) {
        }

        @Override
        public int ioctl(int fd, long request) {
            return -22;
        }

        @Override
        public void close(int fd) {
        }
    }

    @Test
    void refusedPerfFallsBackToJfrWithOneExplainedWarning() throws Exception {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SamplingEngine engine;
        System.setErr(new PrintStream(err, true));
        try {
            engine = EngineSelector.of(List.of(() -> new PerfEngine(ProcessHandle.current().pid(), new Refusing()),
                    JfrEngine::new)).start(new SamplingSettings(ProfilingEvent.CPU, 10_000_000L, false),
                    new ProfileAccumulator());
        } finally {
            System.setErr(saved);
        }
        try {
            assertThat(engine.name()).isEqualTo("jfr");
            assertThat(err.toString().lines().filter(l -> l.contains("perf engine refused")))
                    .singleElement().asString()
                    .contains("perf_event_open failed with EPERM (not permitted)")
                    .contains("kernel.perf_event_paranoid=")
                    .contains("falling back to the jfr engine");
        } finally {
            engine.stop();
        }
    }
}
