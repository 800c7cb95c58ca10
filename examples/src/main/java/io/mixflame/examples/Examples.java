package io.mixflame.examples;

import io.mixflame.examples.alloc.AllocWorkload;
import io.mixflame.examples.churn.ChurnWorkload;
import io.mixflame.examples.idle.IdleWorkload;
import io.mixflame.examples.jvmcode.JvmCodeWorkload;
import io.mixflame.examples.labels.EndpointsWorkload;
import io.mixflame.examples.labels.LabelSwitchWorkload;
import io.mixflame.examples.traced.TracedWorkload;
import io.mixflame.examples.lock.LockWorkload;
import io.mixflame.examples.parked.ParkedWorkload;
import io.mixflame.examples.mixed.MixedWorkload;
import io.mixflame.examples.rocks.RocksWorkload;
import io.mixflame.examples.saturate.SaturateWorkload;
import io.mixflame.examples.service.LoadGenerator;
import io.mixflame.examples.service.ServiceWorkload;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** {@code java -jar mixflame-examples.jar WORKLOAD [options]}: workloads to profile, each with a known truth. */
public final class Examples {
    private static final String USAGE = String.join("\n",
            "usage: java -jar mixflame-examples.jar WORKLOAD [--seconds N] [options]",
            "  cpu [--rounds N]   burns CPU in methods ending in alpha, beta and gamma in the ratio 50:30:20;",
            "                     with --rounds, does N rounds of that work and prints how long they took",
            "  saturate [--threads N] [--rounds N] [--window W]",
            "                     N busy threads (one per core) doing mixed work: Java arithmetic, zlib CRC32",
            "                     through JNI, HashMap churn; --rounds N splits N rounds among them and prints how",
            "                     long they took and the process's CPU time; --window W prints the rounds done",
            "                     in each W-second window of a --seconds run",
            "  mixed              native code between Java frames: zlib, libc qsort with a Java comparator",
            "                     called back from C (JNA), libc memcmp in a loop",
            "  service [--load] [--threads N] [--requests N]",
            "                     HTTP service on 127.0.0.1 with /cpu, /sleep and /lock; prints its port and the",
            "                     time its workers slept and waited for the lock; --load also runs the load generator",
            "  service-load --port P [--threads N] [--requests N]",
            "                     the load generator alone, against a service on 127.0.0.1:P",
            "  churn [--until-eof]",
            "                     short-lived threads, classes loaded and unloaded, deoptimizations; with",
            "                     --until-eof it ends when its standard input ends (--seconds still bounds it)",
            "  idle [--threads N] [--warmup W]",
            "                     N parked threads (500); after W s (10) prints the process's CPU time over --seconds",
            "  jvmcode            one thread per kind of code the JVM generates: array copies, vtable and itable",
            "                     stubs, checksum and digest intrinsics, the clock (each thread named jvmcode-KIND)",
            "  rocks              RocksDB (a real JNI library) driven from the main thread, compacting on its own",
            "                     threads; needs RocksDB's jar in workloads/ beside this jar (the build puts it there)",
            "  parked             threads parked in known Java call chains (lock, sleep, monitor wait); prints",
            "                     the pid and each thread's own view of its stack, for thread-dump tests",
            "  alloc              two threads (alloc-first, alloc-second) each allocating int[] and Integer[] of",
            "                     the same size in turn: half of the bytes each, half of each thread's per type",
            "  lock               four threads contending for one monitor, four for one ReentrantLock, 5 ms held;",
            "                     prints the time each group waited, as the threads measured it",
            "  endpoints [--jetty] HTTP server with /heavy and /light (CPU 3 : 1) on the JDK's server or on Jetty",
            "                     (Jetty: run with -cp 'mixflame-examples.jar:workloads/jetty/*'), and a thread",
            "                     working outside requests; prints its port; the load comes from outside",
            "  traced [--virtual]  Jetty core handler with /inline and /pooled (work on an executor's threads, or",
            "                     virtual ones), for OpenTelemetry's spans; Jetty on the class path as for endpoints",
            "  labels [--flood] [--longer N]",
            "                     a thread switching labels phase=a / phase=b every few ms (N times as long) through",
            "                     mixflame-api; --flood adds a thread with a new tenant label each time",
            "Every workload stops after --seconds (default " + WorkloadArgs.DEFAULT_SECONDS + ") and ends with a line",
            "'" + ProcessFootprint.PREFIX + "VmHWM … kB, process CPU … ms, live heap … kB'.");

    private Examples() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println(USAGE);
            System.exit(2);
        }
        Workload workload;
        try {
            workload = parse(args[0], Arrays.asList(args).subList(1, args.length));
        } catch (IllegalArgumentException e) {
            System.err.println(args[0] + ": " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        workload.run();
        ProcessFootprint.print();
    }

    /** One workload with its arguments parsed, ready to run. */
    private interface Workload {
        void run() throws Exception;
    }

    private static Workload parse(String name, List<String> rest) {
        switch (name) {
            case "cpu" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of(), Set.of(CpuWorkload.ROUNDS));
                return () -> CpuWorkload.main(a);
            }
            case "saturate" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of(), Set.of("--threads", "--rounds", "--window"));
                int threads = Math.toIntExact(a.number("--threads", Runtime.getRuntime().availableProcessors()));
                long rounds = a.number("--rounds", 0);
                int window = Math.toIntExact(a.number("--window", 0));
                return () -> SaturateWorkload.run(threads, rounds, a.seconds(), window);
            }
            case "mixed" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest);
                return () -> MixedWorkload.run(a.seconds());
            }
            case "service" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of("--load"), Set.of("--threads", "--requests"));
                return () -> ServiceWorkload.run(a.seconds(), a.has("--load"), loadSettings(a));
            }
            case "service-load" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of(), Set.of("--port", "--threads", "--requests"));
                if (!a.given("--port")) {
                    throw new IllegalArgumentException("service-load needs --port P");
                }
                int port = Math.toIntExact(a.number("--port", 0));
                return () -> LoadGenerator.run(port, loadSettings(a)).print(System.out);
            }
            case "churn" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of("--until-eof"), Set.of());
                return () -> ChurnWorkload.run(a.seconds(), a.has("--until-eof"));
            }
            case "idle" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of(), Set.of("--threads", "--warmup"));
                int threads = Math.toIntExact(a.number("--threads", 500));
                int warmUp = Math.toIntExact(a.number("--warmup", 10));
                return () -> IdleWorkload.run(threads, warmUp, a.seconds());
            }
            case "jvmcode" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest);
                return () -> JvmCodeWorkload.run(a.seconds());
            }
            case "rocks" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest);
                if (!RocksLibrary.present()) {
                    throw new IllegalArgumentException("needs org.rocksdb:rocksdbjni on the class path: the build "
                            + "copies it to workloads/rocksdbjni.jar beside the examples jar (mvn -pl examples package)");
                }
                return () -> RocksWorkload.run(a.seconds());
            }
            case "parked" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest);
                return () -> ParkedWorkload.run(a.seconds());
            }
            case "alloc" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest);
                return () -> AllocWorkload.run(a.seconds());
            }
            case "lock" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest);
                return () -> LockWorkload.run(a.seconds());
            }
            case "endpoints" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of("--jetty"), Set.of());
                if (a.has("--jetty") && !EndpointsWorkload.jettyPresent()) {
                    throw new IllegalArgumentException("--jetty needs Jetty on the class path: java -cp "
                            + "'mixflame-examples.jar:workloads/jetty/*' io.mixflame.examples.Examples endpoints --jetty");
                }
                return () -> EndpointsWorkload.run(a.has("--jetty"), a.seconds());
            }
            case "traced" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of("--virtual"), Set.of());
                if (!EndpointsWorkload.jettyPresent()) {
                    throw new IllegalArgumentException("traced needs Jetty on the class path: java -cp "
                            + "'mixflame-examples.jar:workloads/jetty/*' io.mixflame.examples.Examples traced");
                }
                return () -> TracedWorkload.run(a.has("--virtual"), a.seconds());
            }
            case "labels" -> {
                WorkloadArgs a = WorkloadArgs.parse(rest, Set.of("--flood"), Set.of("--longer"));
                int longer = Math.toIntExact(a.number("--longer", 1));
                return () -> LabelSwitchWorkload.run(a.has("--flood"), longer, a.seconds());
            }
            default -> throw new IllegalArgumentException("unknown workload");
        }
    }

    private static LoadGenerator.Settings loadSettings(WorkloadArgs a) {
        return new LoadGenerator.Settings(Math.toIntExact(a.number("--threads", LoadGenerator.Settings.DEFAULT_THREADS)),
                a.number("--requests", LoadGenerator.Settings.DEFAULT_MAX_REQUESTS), a.seconds());
    }
}
