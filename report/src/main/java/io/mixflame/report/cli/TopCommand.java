package io.mixflame.report.cli;

import io.mixflame.profile.Profile;
import io.mixflame.report.HotFrames;
import io.mixflame.report.TopTable;
import java.io.PrintStream;
import java.util.List;

/** {@code top IN [N]}: the N (default 20) hottest frames by self samples, with their total share. */
public final class TopCommand {

    /** The command's usage line. */
    public static final String USAGE = "usage: mixflame top IN [N]";

    /** How many frames are shown when N is not given. */
    public static final int DEFAULT_LIMIT = 20;

    private TopCommand() {
    }

    /**
     * Runs the command, printing the table to {@code out}.
     *
     * @param args the arguments after {@code top}
     * @return 0 when the table was printed, 2 for bad usage or input; every failure is one line on {@code err}
     */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return CommandSupport.run("top", err, () -> {
            if (args.isEmpty() || args.size() > 2) {
                throw CommandFailure.usage(USAGE);
            }
            int limit = DEFAULT_LIMIT;
            if (args.size() == 2) {
                limit = limit(args.get(1));
            }
            Profile profile = CommandSupport.readProfile("top", args.get(0), err);
            out.print(TopTable.render(HotFrames.of(profile), limit));
            return 0;
        });
    }

    private static int limit(String text) throws CommandFailure {
        try {
            int n = Integer.parseInt(text);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, like a number that is not positive
        }
        throw new CommandFailure(CommandFailure.BAD_INPUT, "N must be a positive whole number, not '" + text + "'; " + USAGE);
    }
}
