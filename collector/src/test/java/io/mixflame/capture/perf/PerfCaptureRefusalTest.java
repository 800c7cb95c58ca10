package io.mixflame.capture.perf;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A kernel that refuses perf events: an explained exception, not a crash. */
class PerfCaptureRefusalTest {

    /** Refuses every perf_event_open with one errno. */
    record Refusing(int errno) implements PerfSyscalls {
        @Override
        public int perfEventOpen(byte[] attr, int tid, long flags) {
            return -errno;
        }

        @Override
        public long mmap(int fd, long length) {
            throw new AssertionError("nothing to map");
        }

        @Override
        public void munmap(long address, long length) {
            throw new AssertionError("nothing to unmap");
        }

        @Override
        public int ioctl(int fd, long request) {
            throw new AssertionError("nothing to enable");
        }

        @Override
        public void close(int fd) {
            throw new AssertionError("nothing to close");
        }
    }

    @Test
    void refusalNamesTheErrnoAndTheParanoidLevel() {
        PerfCapture capture = new PerfCapture(PerfCaptureSettings.defaults(ProcessHandle.current().pid(), 10_000_000L),
                new Refusing(13));
        assertThatThrownBy(capture::start)
                .isInstanceOf(PerfCaptureUnavailableException.class)
                .hasMessageStartingWith("perf_event_open failed with EACCES (not permitted); kernel.perf_event_paranoid=")
                .hasMessageContaining(PerfRefusal.paranoid());
    }

    @Test
    void aMissingSyscallIsExplainedToo() {
        PerfCapture capture = new PerfCapture(PerfCaptureSettings.defaults(ProcessHandle.current().pid(), 10_000_000L),
                new Refusing(38));
        assertThatThrownBy(capture::start).hasMessageContaining("ENOSYS (perf_event_open is not available");
    }
}
