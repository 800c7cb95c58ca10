package io.mixflame.agent;

import io.mixflame.engine.EngineUnavailableException;
import io.mixflame.engine.SamplingEngine;
import io.mixflame.engine.SamplingSettings;
import io.mixflame.engine.jfr.JfrEngine;
import io.mixflame.capture.perf.LinuxPerfSyscalls;
import io.mixflame.engine.ProfilingEvent;
import io.mixflame.engine.perf.PerfEngine;
import io.mixflame.engine.wall.ThreadState;
import io.mixflame.engine.wall.WallEngine;
import io.mixflame.platform.host.TargetProcesses;
import io.mixflame.process.OwnPid;
import java.util.EnumSet;
import io.mixflame.profile.SampleSink;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the engine the options ask for, falling back along a fixed order when one is refused: every refusal is
 * logged with its reason, and the engine that runs is named in the output.
 */
final class EngineSelector {
    private static final Logger LOG = LoggerFactory.getLogger(EngineSelector.class);

    private final List<Supplier<SamplingEngine>> candidates;

    private EngineSelector(List<Supplier<SamplingEngine>> candidates) {
        this.candidates = candidates;
    }

    /** The engines to try for a choice, best first. */
    static EngineSelector forChoice(EngineChoice choice) {
        return forChoice(choice, ProfilingEvent.CPU, EnumSet.allOf(ThreadState.class));
    }

    /** The engines to try for a choice and event, best first; wall-clock samples keep only {@code states}. */
    static EngineSelector forChoice(EngineChoice choice, ProfilingEvent event, EnumSet<ThreadState> states) {
        List<Supplier<SamplingEngine>> list = new ArrayList<>();
        // On Windows a thread of this JVM must not stop another (safepoints, locks): a helper process does it.
        Supplier<SamplingEngine> nativeEngine = new EngineMaker(TargetProcesses.onWindows() ? EngineMaker.HELPER
                : event == ProfilingEvent.WALL ? EngineMaker.WALL : EngineMaker.PERF, states);
        switch (choice) {
            case AUTO -> {
                // Where perf events are refused, a wall profile whose running threads the ptrace engine walks is
                // worth more than one that shows them unwalked.
                list.add(TargetProcesses.onWindows() || event != ProfilingEvent.WALL ? nativeEngine
                        : new EngineMaker(EngineMaker.WALL_WALKING_RUNNING, states));
                if (!TargetProcesses.onWindows()) {
                    // Where perf_events are refused (a container's seccomp profile, perf_event_paranoid 3 or 4), a
                    // timer in each thread takes CPU samples in the thread itself; failing that, threads stopped for
                    // a moment from a helper process still give mixed stacks.
                    if (event == ProfilingEvent.CPU) {
                        list.add(new EngineMaker(EngineMaker.TIMER, states));
                    }
                    list.add(new EngineMaker(EngineMaker.PTRACE, states));
                }
                list.add(new EngineMaker(EngineMaker.JFR, states));
            }
            case PERF -> list.add(nativeEngine);
            case TIMER -> list.add(new EngineMaker(EngineMaker.TIMER, states));
            case JFR -> list.add(new EngineMaker(EngineMaker.JFR, states));
            case HELPER -> list.add(new EngineMaker(EngineMaker.HELPER, states));
            case PTRACE -> list.add(new EngineMaker(EngineMaker.PTRACE, states));
            default -> throw new IllegalStateException("no engines for " + choice);
        }
        return new EngineSelector(list);
    }

    /**
     * Makes one kind of engine when it is tried. A class rather than lambdas and constructor references: each is a
     * class the JVM spins in the service's start-up.
     */
    private static final class EngineMaker implements Supplier<SamplingEngine> {
        static final int PERF = 0;
        static final int WALL = 1;
        static final int JFR = 2;
        static final int HELPER = 3;
        static final int PTRACE = 4;
        static final int WALL_WALKING_RUNNING = 5;
        static final int TIMER = 6;
        private final int kind;
        private final EnumSet<ThreadState> states;

        EngineMaker(int kind, EnumSet<ThreadState> states) {
            this.kind = kind;
            this.states = states;
        }

        @Override
        public SamplingEngine get() {
            return switch (kind) {
                case PERF -> new PerfEngine();
                case WALL -> new WallEngine(OwnPid.get(), new LinuxPerfSyscalls(), states);
                case JFR -> new JfrEngine();
                case TIMER -> PerfEngine.withThreadTimers();
                case PTRACE -> new HelperEngine(true);
                case WALL_WALKING_RUNNING -> new WallEngine(OwnPid.get(), new LinuxPerfSyscalls(), states)
                        .needingRunningStacks();
                default -> new HelperEngine(false);
            };
        }
    }

    /** The names of the engines it would try, in order (each made, none started). */
    List<String> names() {
        List<String> names = new ArrayList<>();
        for (Supplier<SamplingEngine> candidate : candidates) {
            names.add(candidate.get().name());
        }
        return names;
    }

    /** A selector over given engines, for tests of the fallback. */
    static EngineSelector of(List<Supplier<SamplingEngine>> candidates) {
        return new EngineSelector(List.copyOf(candidates));
    }

    /**
     * Starts the first engine that agrees to.
     *
     * @throws EngineUnavailableException when none does; its message lists every refusal
     */
    SamplingEngine start(SamplingSettings settings, SampleSink target) throws EngineUnavailableException {
        StringBuilder refusals = new StringBuilder();
        for (int i = 0; i < candidates.size(); i++) {
            SamplingEngine engine = candidates.get(i).get();
            try {
                engine.start(settings, target);
                return engine;
            } catch (EngineUnavailableException e) {
                if (refusals.length() > 0) {
                    refusals.append("; ");
                }
                refusals.append(engine.name()).append(": ").append(e.getMessage());
                if (i + 1 < candidates.size()) {
                    LOG.warn("{} engine refused ({}); falling back to the {} engine", engine.name(), e.getMessage(),
                            candidates.get(i + 1).get().name());
                }
            }
        }
        throw new EngineUnavailableException("no engine could start: " + refusals);
    }
}
