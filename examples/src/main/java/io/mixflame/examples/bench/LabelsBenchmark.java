package io.mixflame.examples.bench;

import io.mixflame.api.Labels;
import io.mixflame.api.internal.LabelFunctions;
import io.mixflame.capture.labels.LabelLog;
import io.mixflame.capture.labels.LabelRecorder;
import io.mixflame.capture.labels.LabelSets;
import io.mixflame.platform.host.TargetProcesses;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What entering and leaving a labelled scope costs a request: the {@code mixflame-api} without an agent
 * (what every application that ships the API pays), the API with a {@link LabelRecorder} installed as the agent
 * installs it, and the recorder alone. The body is empty, so the score is the labels' cost per request: one
 * enter and one exit, each of which writes a timestamped change to the thread's log.
 *
 * <p>Average time: the calls take tens of nanoseconds, below what sample mode's per-call timer resolves. Each
 * benchmark runs in a JVM of its own (a fork), so that one with a recorder installed leaves no recorder, nor a type
 * profile of the API's call sites, to the ones without; {@code -f 0} would mix them. The {@code TwoThreads} variants
 * run the same on two threads sharing one recorder, as a service's workers share the agent's.
 *
 * <pre>java -cp examples/target/mixflame-examples.jar org.openjdk.jmh.Main LabelsBenchmark</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LabelsBenchmark {
    private static final Runnable NOTHING = () -> {
    };

    /** The labels a request sets; fields, not constants, so that the JIT cannot fold the key's check away. */
    @State(Scope.Thread)
    public static class Request {
        String key = "endpoint";
        String value = "/checkout";
        String tenantKey = "tenant";
        Map<String, String> tenant = Map.of("tenant", "acme");
        private final String[] tenants = {"acme", "globex"};
        private int next;

        /** The other tenant each call: a different set every time, past the recorder's cache of its last step. */
        String nextTenant() {
            next ^= 1;
            return tenants[next];
        }
    }

    /** No agent: the API's functions are null, as in an application run without mixflame. */
    @State(Scope.Benchmark)
    public static class NoAgent {
        @Setup(Level.Trial)
        public void uninstall() {
            LabelFunctions.set(null, null, null);
        }
    }

    /** A recorder installed into the API, as the agent's {@code labels} option installs one. */
    @State(Scope.Benchmark)
    public static class Recording {
        LabelRecorder recorder;

        @Setup(Level.Trial)
        public void install() {
            recorder = new LabelRecorder(new LabelSets(LabelSets.DEFAULT_MAX_SETS), new LabelLog(64),
                    TargetProcesses.ownThreadId());
            RecorderAdapter functions = new RecorderAdapter(recorder);
            LabelFunctions.set(functions, functions, functions);
        }

        @TearDown(Level.Trial)
        public void uninstall() {
            LabelFunctions.set(null, null, null);
            recorder.stop();
        }
    }

    @Benchmark
    public void apiRunWithoutAgent(NoAgent agent, Request request) {
        Labels.run(request.key, request.value, NOTHING);
    }

    @Benchmark
    public void apiRun(Recording recording, Request request) {
        Labels.run(request.key, request.value, NOTHING);
    }

    @Benchmark
    @Threads(2)
    public void apiRunTwoThreads(Recording recording, Request request) {
        Labels.run(request.key, request.value, NOTHING);
    }

    @Benchmark
    public void apiRunMap(Recording recording, Request request) {
        Labels.run(request.tenant, NOTHING);
    }

    @Benchmark
    public void apiScopeAlternating(Recording recording, Request request) {
        try (Labels.Scope scope = Labels.scope(request.tenantKey, request.nextTenant())) {
            NOTHING.run();
        }
    }

    @Benchmark
    @Threads(2)
    public void apiScopeAlternatingTwoThreads(Recording recording, Request request) {
        try (Labels.Scope scope = Labels.scope(request.tenantKey, request.nextTenant())) {
            NOTHING.run();
        }
    }

    @Benchmark
    public void recorderEnterExit(Recording recording, Request request) {
        recording.recorder.exit(recording.recorder.enter(request.key, request.value));
    }

    @Benchmark
    @Threads(2)
    public void recorderEnterExitTwoThreads(Recording recording, Request request) {
        recording.recorder.exit(recording.recorder.enter(request.key, request.value));
    }

    /**
     * The recorder as the JDK function types the API holds. The agent's own adapter is internal to it; this one does
     * the same, so the API's call sites see one receiver type, as they do under the agent.
     */
    static final class RecorderAdapter implements ToLongBiFunction<String, String>, ToLongFunction<String[]>,
            LongConsumer {
        private final LabelRecorder recorder;

        RecorderAdapter(LabelRecorder recorder) {
            this.recorder = recorder;
        }

        @Override
        public long applyAsLong(String key, String value) {
            return recorder.enter(key, value);
        }

        @Override
        public long applyAsLong(String[] keyValues) {
            return recorder.enter(keyValues);
        }

        @Override
        public void accept(long token) {
            recorder.exit(token);
        }
    }
}
