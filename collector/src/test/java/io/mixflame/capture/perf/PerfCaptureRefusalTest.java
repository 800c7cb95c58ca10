package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A kernel that refuses perf events: an explained exception, not a crash. */
class PerfCaptureRefusalTest {

    @Test
    void refusalNamesTheErrnoAndTheParanoidLevel() {
        PerfCapture capture = new PerfCapture(PerfCaptureSettings.defaults(ProcessHandle.current().pid(), 10_000_000L),
                new RefusingPerfSyscalls(13));
        assertThatThrownBy(capture::start)
                .isInstanceOf(PerfCaptureUnavailableException.class)
                .hasMessageStartingWith("perf_event_open failed with EACCES (not permitted); kernel.perf_event_paranoid=")
                .hasMessageContaining(PerfRefusal.paranoid());
    }

    @Test
    void aMissingSyscallIsExplainedToo() {
        PerfCapture capture = new PerfCapture(PerfCaptureSettings.defaults(ProcessHandle.current().pid(), 10_000_000L),
                new RefusingPerfSyscalls(38));
        assertThatThrownBy(capture::start).hasMessageContaining("ENOSYS (perf_event_open is not available");
    }
}
