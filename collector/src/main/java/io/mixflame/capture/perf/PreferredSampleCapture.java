package io.mixflame.capture.perf;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the capture a process's threads are best sampled with: a ring buffer per CPU shared by every thread (a fixed
 * amount of the user's locked memory, whatever the thread count); where that cannot be had (descriptors for a
 * process with many threads at an attach, a kernel or a test's fake without per-CPU events), a ring per thread.
 */
public final class PreferredSampleCapture {
    private static final Logger LOG = LoggerFactory.getLogger(PreferredSampleCapture.class);

    private PreferredSampleCapture() {
    }

    /**
     * Opens and starts one of the two.
     *
     * @param ownThreads threads of the profiler itself, sampled without a stack copy
     * @throws PerfCaptureUnavailableException when neither can be opened; the message says why the last was refused
     */
    public static SampleCapture open(PerfCaptureSettings settings, PerfSyscalls syscalls, int[] ownThreads)
            throws PerfCaptureUnavailableException {
        return open(settings, syscalls, ownThreads, null);
    }

    /**
     * The same, the per-CPU capture also reporting threads' switches to {@code switches} when not null (see
     * {@link SampleCapture#onThreadSwitched}; the per-thread one does not).
     */
    public static SampleCapture open(PerfCaptureSettings settings, PerfSyscalls syscalls, int[] ownThreads,
                                     SampleCapture.SwitchListener switches) throws PerfCaptureUnavailableException {
        PerCpuPerfCapture perCpu = new PerCpuPerfCapture(settings, syscalls);
        if (switches != null) {
            perCpu.onThreadSwitched(switches);
        }
        String perCpuRefusal;
        try {
            perCpu.start(ownThreads);
            return perCpu;
        } catch (PerfCaptureUnavailableException e) {
            perCpuRefusal = e.getMessage();
        } catch (RuntimeException | LinkageError e) {
            perCpu.close();
            throw e;
        }
        PerfCapture perThread = new PerfCapture(settings, syscalls);
        try {
            perThread.start(ownThreads);
        } catch (PerfCaptureUnavailableException | RuntimeException | LinkageError e) {
            perThread.close();
            throw e;
        }
        LOG.info("sampling with a perf ring buffer per thread, as per-CPU buffers could not be had: {}",
                perCpuRefusal);
        return perThread;
    }
}
