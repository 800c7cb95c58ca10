package io.mixflame.report.cli;

import java.util.Arrays;
import java.util.List;

/** {@code CliMain report|diff|top ARGS}: the report commands as a process, for tests that need one. */
public final class CliMain {

    private CliMain() {
    }

    public static void main(String[] args) {
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        int status = switch (args[0]) {
            case "report" -> ReportCommand.run(rest, System.out, System.err);
            case "diff" -> DiffCommand.run(rest, System.out, System.err);
            case "top" -> TopCommand.run(rest, System.out, System.err);
            default -> throw new IllegalArgumentException(args[0]);
        };
        System.out.flush();
        System.exit(status);
    }
}
