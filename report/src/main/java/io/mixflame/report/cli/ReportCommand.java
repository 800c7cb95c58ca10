package io.mixflame.report.cli;

import io.mixflame.profile.Profile;
import io.mixflame.report.FrameFilter;
import io.mixflame.report.FrameStyle;
import io.mixflame.report.NamePattern;
import io.mixflame.report.OutputFormat;
import io.mixflame.report.ProfileFiles;
import io.mixflame.report.ReportOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code report IN OUT [--title T] [--include PATTERN]... [--exclude PATTERN]... [--reverse] [--ann] [--sig]
 * [--lib] [--lines]}: converts collapsed stacks (or a flame graph page, or a JFR recording) to the format OUT's extension
 * names: {@code .html}, {@code .pb.gz} / {@code .pprof}, {@code .jfr}, {@code .collapsed} / {@code .folded} /
 * {@code .txt}. Patterns are {@link NamePattern}s; {@code --ann}, {@code --sig}, {@code --lib} and {@code --lines} spell frames as
 * {@link FrameStyle} says.
 */
public final class ReportCommand {

    /** The command's usage line. */
    public static final String USAGE =
            "usage: mixflame report IN OUT [--title T] [--include PATTERN]... [--exclude PATTERN]... [--reverse]"
                    + " [--ann] [--sig] [--lib] [--lines]";

    /** The usage, and what each input, output and option is: what {@code report --help} prints. */
    public static final String HELP = String.join("\n", USAGE,
            "  IN   collapsed stacks (.collapsed, .folded, .txt, or a stream), an HTML flame graph of mixflame's or",
            "       async-profiler's, a .jfr recording (mixflame's, the JDK's or async-profiler's) or a gzip'd pprof",
            "       profile (mixflame's, async-profiler's converter's, Go's)",
            "  OUT  .html, .collapsed/.folded/.txt, .pb.gz/.pprof or .jfr, by its extension; written atomically",
            "  --title T            the HTML page's title",
            "  --include PATTERN    keep stacks with a frame it matches (repeatable; a glob with *, else a regex)",
            "  --exclude PATTERN    drop stacks with a frame it matches (repeatable)",
            "  --reverse            leaf first (an icicle in HTML)",
            "  --ann --sig --lib    Java frames' kinds (_[j], _[i], _[0], _[1]), C++ parameters, native modules",
            "  --lines              keep each Java frame's line (from .jfr, pprof, or collapsed stacks with :LINE)",
            "  A malformed input line is reported as 'line N: why' and skipped; inputs past their bounds fail in one",
            "  line (docs/formats.md). Exit status: 0 written, 2 bad usage or input, 1 OUT not written.");

    private ReportCommand() {
    }

    /**
     * Runs the command.
     *
     * @param args the arguments after {@code report}
     * @return 0 when OUT was written (malformed input lines are then warnings on {@code err}), 2 for bad usage
     *         or input, 1 when OUT could not be written; every failure is one line on {@code err}
     */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return CommandSupport.run("report", err, () -> {
            List<String> files = new ArrayList<>();
            String title = null;
            List<NamePattern> include = new ArrayList<>();
            List<NamePattern> exclude = new ArrayList<>();
            boolean reverse = false;
            boolean annotate = false;
            boolean signatures = false;
            boolean libraries = false;
            boolean lines = false;
            boolean optionsEnded = false;
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (optionsEnded || !arg.startsWith("--")) {
                    files.add(arg);
                    continue;
                }
                int eq = arg.indexOf('=');
                String name = eq < 0 ? arg : arg.substring(0, eq);
                switch (name) {
                    case "--" -> optionsEnded = true;
                    case "--reverse" -> reverse = true;
                    case "--ann" -> annotate = true;
                    case "--sig" -> signatures = true;
                    case "--lib" -> libraries = true;
                    case "--lines" -> lines = true;
                    case "--title", "--include", "--exclude" -> {
                        String value;
                        if (eq >= 0) {
                            value = arg.substring(eq + 1);
                        } else if (i + 1 < args.size()) {
                            value = args.get(++i);
                        } else {
                            throw new CommandFailure(CommandFailure.BAD_INPUT, name + " needs a value; " + USAGE);
                        }
                        switch (name) {
                            case "--title" -> title = value;
                            case "--include" -> include.add(pattern(name, value));
                            default -> exclude.add(pattern(name, value));
                        }
                    }
                    default -> throw new CommandFailure(CommandFailure.BAD_INPUT, "unknown option " + arg + "; " + USAGE);
                }
            }
            if (files.size() != 2) {
                throw CommandFailure.usage(USAGE);
            }
            String in = files.get(0);
            String outFile = files.get(1);
            OutputFormat format;
            try {
                format = OutputFormat.fromPath(outFile);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(CommandFailure.BAD_INPUT, e.getMessage());
            }
            Profile profile = CommandSupport.readProfile("report", in, err);
            ReportOptions options = new ReportOptions(title, new FrameFilter(include, exclude), reverse,
                    new FrameStyle(annotate, signatures, libraries, lines));
            CommandSupport.writeFile(outFile, stream -> ProfileFiles.write(profile, stream, format, options));
            out.println("mixflame report: wrote " + outFile);
            return 0;
        });
    }

    private static NamePattern pattern(String option, String value) throws CommandFailure {
        try {
            return NamePattern.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(CommandFailure.BAD_INPUT, option + " " + e.getMessage());
        }
    }
}
