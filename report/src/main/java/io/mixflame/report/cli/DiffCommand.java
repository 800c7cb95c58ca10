package io.mixflame.report.cli;

import io.mixflame.profile.Profile;
import io.mixflame.report.DiffFlameGraph;
import io.mixflame.report.OutputFormat;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code diff BEFORE AFTER OUT.html}: a differential flame graph, AFTER's shape coloured by the change from
 * BEFORE (see {@link DiffFlameGraph}).
 */
public final class DiffCommand {

    /** The command's usage line. */
    public static final String USAGE = "usage: mixflame diff BEFORE AFTER OUT.html";

    private DiffCommand() {
    }

    /**
     * Runs the command.
     *
     * @param args the arguments after {@code diff}
     * @return 0 when OUT was written, 2 for bad usage or input, 1 when OUT could not be written; every
     *         failure is one line on {@code err}
     */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return CommandSupport.run("diff", err, () -> {
            if (args.size() != 3) {
                throw CommandFailure.usage(USAGE);
            }
            String outFile = args.get(2);
            boolean html;
            try {
                html = OutputFormat.fromPath(outFile) == OutputFormat.HTML;
            } catch (IllegalArgumentException e) {
                html = false;
            }
            if (!html) {
                throw new CommandFailure(CommandFailure.BAD_INPUT,
                        "'" + outFile + "': a diff is written as a flame graph page; name it .html");
            }
            Profile before = CommandSupport.readProfile("diff", args.get(0), err);
            Profile after = CommandSupport.readProfile("diff", args.get(1), err);
            CommandSupport.writeFile(outFile, stream -> DiffFlameGraph.write(before, after, stream, null));
            out.println("mixflame diff: wrote " + outFile);
            return 0;
        });
    }
}
