package io.mixflame.boot;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code record} in a JVM set up for sampling beside a service: the JVM the user starts with {@code java -jar}
 * compiles the tool's code with C2 and sizes G1 for the machine, which took more CPU than the sampling itself (a
 * 25-s {@code record --pid} at 10 ms under Wine: 11–13% of one core, of which C2 alone 0.8 s; with C1 alone and the
 * serial collector 6.3–6.5%, BENCHMARKS.md). Those flags cannot be chosen after the JVM started, so the first JVM
 * starts a second with them, passes its standard streams on, waits for it and exits with its status. The first
 * JVM's own JVM options go on to the second where the system lists them (Linux); Windows does not, and they are
 * dropped there. Nothing is relaunched where the user chose the compiler, where the tool runs without {@code -jar},
 * or with {@code -Dmixflame.relaunch=false}.
 */
final class ToolJvmRelaunch {
    /**
     * Set in the second JVM: it is the one that records, and the value is the CPU time in nanoseconds the first
     * JVM had used when it started the second (-1 when unknown), counted with the profiler's cost (the first then
     * only waits). The first JVM tells it, as Wine answers another process's CPU time with the caller's own.
     */
    static final String RELAUNCHED_PROPERTY = "mixflame.relaunched";
    /** {@code -Dmixflame.relaunch=false} records in the JVM the user started. */
    static final String OPT_OUT_PROPERTY = "mixflame.relaunch";
    /** The compiler for the tool: C1 alone (its tier 1), as the helper process has it. */
    static final String C1_ALONE = "-XX:TieredStopAtLevel=1";
    /** One small collector thread rather than G1's, where the user chose no collector. */
    static final String SERIAL_GC = "-XX:+UseSerialGC";
    /** How long the first JVM, asked to stop, waits for the second to write what it has. */
    private static final long STOP_WAIT_SECONDS = 60;

    private ToolJvmRelaunch() {
    }

    /**
     * Runs the command in a second JVM when it is one that samples beside a service and this JVM is the one the
     * user started; otherwise does nothing.
     *
     * @return the second JVM's exit status, or null when the command is to run in this JVM
     */
    static Integer run(String[] args, String jar) {
        if (!wanted(args, System.getProperty(RELAUNCHED_PROPERTY), System.getProperty(OPT_OUT_PROPERTY))) {
            return null;
        }
        ProcessHandle.Info self = ProcessHandle.current().info();
        String java = self.command().orElse(null);
        long cpu = self.totalCpuDuration().map(Duration::toNanos).orElse(-1L);
        List<String> command = java == null ? null
                : childCommand(java, self.arguments().map(List::of).orElse(null), jar, List.of(args), cpu);
        if (command == null) {
            return null;
        }
        Process child;
        try {
            child = new ProcessBuilder(command).inheritIO().start();
        } catch (IOException | RuntimeException e) {
            // Recording here, with this JVM's flags, is still recording.
            return null;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(child), "mixflame-relaunch-exit"));
        while (true) {
            try {
                return child.waitFor();
            } catch (InterruptedException e) {
                // the status is what this JVM exits with: wait on
            }
        }
    }

    /**
     * This JVM is being stopped (Ctrl-C, a signal): the second JVM gets the same request (on Windows a console's
     * Ctrl-C reaches both, and destroying would end it without its file) and is given time to write what it has.
     */
    private static void stop(Process child) {
        if (!child.isAlive()) {
            return;
        }
        if (!File.separator.equals("\\")) {
            child.destroy();
        }
        try {
            child.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether to relaunch: for {@code record} (but its help), in the JVM the user started, unless opted out.
     *
     * @param relaunched the value of {@value #RELAUNCHED_PROPERTY} in this JVM, or null
     * @param optOut     the value of {@value #OPT_OUT_PROPERTY}, or null
     */
    static boolean wanted(String[] args, String relaunched, String optOut) {
        if (args.length == 0 || !args[0].equals("record") || relaunched != null || "false".equals(optOut)) {
            return false;
        }
        return args.length < 2 || !(args[1].equals("-h") || args[1].equals("--help") || args[1].equals("help"));
    }

    /**
     * The second JVM's command line: the same launcher, this JVM's options and the tool's flags, the same jar and
     * arguments; null where the user chose the compiler or the tool was not run with {@code -jar}.
     *
     * @param java      this JVM's launcher
     * @param arguments this JVM's arguments after the launcher as the system lists them, or null where it does not
     * @param jar       the tool's jar
     * @param args      the tool's arguments
     * @param cpuNanos  this JVM's CPU time so far, or -1
     */
    static List<String> childCommand(String java, List<String> arguments, String jar, List<String> args,
                                     long cpuNanos) {
        List<String> jvmOptions = List.of();
        if (arguments != null) {
            int jarAt = arguments.indexOf("-jar");
            if (jarAt < 0) {
                return null;
            }
            jvmOptions = arguments.subList(0, jarAt);
        }
        boolean collectorChosen = false;
        for (String option : jvmOptions) {
            if (option.startsWith("-XX:TieredStopAtLevel") || option.equals("-XX:-TieredCompilation")
                    || option.equals("-Xint") || option.equals("-Xcomp") || option.startsWith("-D" + RELAUNCHED_PROPERTY)) {
                return null;
            }
            collectorChosen |= option.startsWith("-XX:+Use") && option.endsWith("GC");
        }
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add(C1_ALONE);
        if (!collectorChosen) {
            command.add(SERIAL_GC);
        }
        command.add("-D" + RELAUNCHED_PROPERTY + "=" + cpuNanos);
        command.add("-jar");
        command.add(jar);
        command.addAll(args);
        return command;
    }
}
