package io.mixflame.examples.harness;

import java.io.IOException;

/**
 * Where mixflame's own CPU time goes: one run of fixed work under mixflame at 10 ms with async-profiler attached
 * too, sampling every thread's CPU time every 1 ms and naming the thread in each stack.
 *
 * @param work the workload and its rounds
 * @param run  the run, with mixflame's profile and async-profiler's profile of every thread
 */
record ThreadCpuStudy(FixedWork work, ChildRun run) {

    /** Runs the study. */
    static ThreadCpuStudy run(WorkloadRunner runner, FixedWork work) throws IOException, InterruptedException {
        return new ThreadCpuStudy(work, runner.runWithThreadProfile(Profiler.MIXFLAME, work.command(), work.seconds()));
    }
}
