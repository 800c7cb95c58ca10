package io.mixflame.cli;

import io.mixflame.agent.HelperCommandLine;
import io.mixflame.agent.JnaDispatchCache;
import io.mixflame.report.cli.DiffCommand;
import io.mixflame.report.cli.ReportCommand;
import io.mixflame.report.cli.TopCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** {@code java -jar mixflame.jar COMMAND …}: the command-line tool. */
public final class Main {
    static final String USAGE = String.join("\n",
            "usage: java -jar mixflame.jar COMMAND [ARGS]",
            "  attach PID [OPTIONS]     start profiling a running JVM (OPTIONS as for -javaagent)",
            "  attach PID stop          stop and write the profile",
            "  attach PID dump FILE     write the profile so far to FILE and keep profiling",
            "  attach PID status        say whether it profiles and how much it has gathered",
            "  report IN OUT [--title T] [--include P]... [--exclude P]... [--reverse] [--ann] [--sig] [--lib]",
            "                           convert collapsed stacks or .jfr to .html, .pb.gz, .jfr or .collapsed/.folded",
            "  diff BEFORE AFTER OUT.html   differential flame graph of two collapsed profiles",
            "  top IN [N]               the N hottest frames with self and total share",
            "  record --pid PID [-d 30s] -f OUT [-e EVENT] [-i INTERVAL] [-t] [OPTIONS]",
            "                           profile another running JVM from outside (perf engine; on Windows, suspend)",
            "  launch OPTIONS -- [-cp CLASSPATH] MAINCLASS [ARGS...]",
            "                           run an application with profiling started as -javaagent would",
            "                           (for runtimes without java.instrument, such as jlink images)",
            "  stacks PID [--format json] [--java-only|--native-only] [--max-frames N] [--walker own|dbghelp]",
            "                           every thread's stack now, Java and native frames in call order",
            "  --version                the version, and the commit and time of the build",
            "COMMAND --help (or -h) shows the command's usage.");

    private Main() {
    }

    private static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h");
    }

    /** The usage of a command, or null when there is no such command. */
    static String usageOf(String command) {
        return switch (command) {
            case "attach" -> AttachCommand.USAGE;
            case "report" -> ReportCommand.HELP;
            case "diff" -> DiffCommand.USAGE;
            case "top" -> TopCommand.USAGE;
            case "stacks" -> StacksCommand.USAGE;
            case "record" -> RecordArguments.HELP;
            case HelperCommandLine.COMMAND -> HelperCommand.USAGE;
            case "launch" -> LaunchCommand.USAGE;
            default -> null;
        };
    }

    public static void main(String[] args) {
        // The tool's own JVM is a service's neighbour (record, helper) or the service itself (launch).
        JnaDispatchCache.initializeFromHostCache();
        int status = run(Arrays.asList(args), System.out, System.err);
        if (status == LaunchCommand.APPLICATION_RETURNED) {
            // The application's main returned; its other threads decide when this JVM ends, as with java itself.
            return;
        }
        System.out.flush();
        System.exit(status);
    }

    /** Runs a command; returns the process exit status (0 ok, 1 failed, 2 bad usage or input). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        String usage = usageOf(args.get(0));
        if (usage != null && !rest.isEmpty() && isHelp(rest.get(0))) {
            out.println(usage);
            return 0;
        }
        return switch (args.get(0)) {
            case "attach" -> AttachCommand.run(rest, out, err);
            case "report" -> ReportCommand.run(rest, out, err);
            case "diff" -> DiffCommand.run(rest, out, err);
            case "top" -> TopCommand.run(rest, out, err);
            case "stacks" -> StacksCommand.run(rest, out, err);
            case "record" -> RecordCommand.run(rest, out, err);
            case HelperCommandLine.COMMAND -> HelperCommand.run(rest, err);
            case "launch" -> LaunchCommand.run(rest, err);
            case "help", "-h", "--help" -> {
                out.println(USAGE);
                yield 0;
            }
            case "--version", "version" -> {
                out.println(BuildInfo.current().describe());
                yield 0;
            }
            default -> {
                err.println("mixflame: unknown command '" + args.get(0) + "'");
                err.println(USAGE);
                yield 2;
            }
        };
    }
}
