package io.mixflame.examples.harness;

/** What the profilers are told to sample, the same for each of them. */
enum Sampling {
    /** CPU time, a sample every 10 ms of a thread's CPU time. */
    CPU("event=cpu,interval=10ms"),
    /** CPU time every 1 ms: ten times the samples, where a profiler that cannot keep up loses some. */
    CPU_1MS("event=cpu,interval=1ms"),
    /** CPU time every 10 ms, each stack under a root frame naming its thread. */
    CPU_THREADS("event=cpu,interval=10ms,threads"),
    /** CPU time every 10 ms with {@code labels}: mixflame only, the same as {@link #CPU} but for the labels. */
    CPU_LABELS("event=cpu,interval=10ms,labels"),
    /** Wall-clock time, every thread every 20 ms (mixflame's default wall interval); JFR has no such mode. */
    WALL("event=wall,interval=20ms"),
    /** Allocations, each profiler's own way (JFR: its {@code profile} settings, 300 samples a second at most). */
    ALLOC("event=alloc"),
    /** Contended monitor enters and parks of 10 ms or more, JFR's {@code profile} threshold. */
    LOCK("event=lock,lock=10ms");

    private final String agentOptions;

    Sampling(String agentOptions) {
        this.agentOptions = agentOptions;
    }

    /** The options, in the syntax async-profiler's and mixflame's agents share. */
    String agentOptions() {
        return agentOptions;
    }
}
