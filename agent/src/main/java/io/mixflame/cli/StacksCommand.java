package io.mixflame.cli;

import io.mixflame.report.NameEscaping;
import io.mixflame.unwind.chain.PeFrameUnwinding;
import io.mixflame.stack.CallStack;
import io.mixflame.stack.CaptureOptions;
import io.mixflame.stack.ProcessStackWalker;
import io.mixflame.stack.StackFrame;
import io.mixflame.stack.ThreadSummary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * {@code stacks PID [--format text|json] [--java-only|--native-only] [--max-frames N]}: every thread of a process
 * once, with its frames, Java and native, innermost first; like jstack with the native frames in place, or, for a
 * process without a JVM, like gdb's {@code thread apply all bt}.
 */
final class StacksCommand {
    static final String USAGE = "usage: stacks PID [--format text|json] [--java-only | --native-only] [--max-frames N]"
            + " [--walker own|dbghelp]";

    private StacksCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, out, err, pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    /**
     * As {@link #run(List, PrintStream, PrintStream)}, asking {@code alive} whether the process still runs once its
     * stacks are read.
     */
    static int run(List<String> args, PrintStream out, PrintStream err, LongPredicate alive) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        long pid;
        boolean json = false;
        boolean javaOnly = false;
        boolean nativeOnly = false;
        int maxFrames = 2048;
        PeFrameUnwinding walkerChoice = PeFrameUnwinding.OWN;
        try {
            pid = number(args.get(0), "a process id");
            for (int i = 1; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--format" -> {
                        String f = value(args, ++i, "--format");
                        if (!f.equals("json") && !f.equals("text")) {
                            throw new IllegalArgumentException("--format takes text or json, not '" + f + "'");
                        }
                        json = f.equals("json");
                    }
                    case "--java-only" -> javaOnly = true;
                    case "--native-only" -> nativeOnly = true;
                    case "--max-frames" -> maxFrames = (int) Math.min(Integer.MAX_VALUE,
                            number(value(args, ++i, "--max-frames"), "a number of frames"));
                    case "--walker" -> walkerChoice = PeFrameUnwinding.parse(value(args, ++i, "--walker"));
                    default -> throw new IllegalArgumentException("unknown option '" + args.get(i) + "'");
                }
            }
            if (javaOnly && nativeOnly) {
                throw new IllegalArgumentException("--java-only and --native-only exclude each other");
            }
        } catch (IllegalArgumentException e) {
            err.println("mixflame stacks: " + e.getMessage());
            return 2;
        }
        if (!ProcessHandle.of(pid).isPresent()) {
            err.println("mixflame stacks: no process " + pid);
            return 2;
        }
        boolean onlyJava = javaOnly;
        boolean onlyNative = nativeOnly;
        // Held back until the walk is over: a process that exits meanwhile leaves stacks that are not its last.
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream held = new PrintStream(buffer, false, StandardCharsets.UTF_8);
        int status = walk(pid, walkerChoice, held, err, json, maxFrames, onlyJava, onlyNative);
        held.flush();
        if (status == 0 && !alive.test(pid)) {
            err.println("mixflame stacks: process " + pid + " exited while its stacks were read");
            return 1;
        }
        out.write(buffer.toByteArray(), 0, buffer.size());
        return status;
    }

    private static int walk(long pid, PeFrameUnwinding walkerChoice, PrintStream out, PrintStream err, boolean json,
                            int maxFrames,
                            boolean onlyJava, boolean onlyNative) {
        try (ProcessStackWalker walker = ProcessStackWalker.attach(pid, walkerChoice)) {
            List<ThreadSummary> threads = walker.threads();
            CaptureOptions options = CaptureOptions.DEFAULT;
            JsonText j = new JsonText().beginObject().field("pid", pid).field("jvm", walker.hasJvm()).beginArray("threads");
            if (!json) {
                out.println("Stacks of process " + pid + (walker.hasJvm() ? " (HotSpot JVM)" : "") + ", "
                        + threads.size() + " threads");
            }
            for (ThreadSummary t : threads) {
                CallStack stack = walker.capture(t.tid(), options);
                List<StackFrame> frames = stack.frames().stream()
                        .filter(f -> !onlyJava || f.javaClass() != null)
                        .filter(f -> !onlyNative || f.javaClass() == null)
                        .limit(maxFrames).toList();
                if (json) {
                    writeJson(j, t, stack, frames);
                } else {
                    writeText(out, t, stack, frames);
                }
            }
            if (json) {
                out.println(j.endArray().endObject());
            }
            return 0;
        } catch (IOException e) {
            err.println("mixflame stacks: cannot read process " + pid + ": " + e.getMessage());
            return 1;
        }
    }

    /** A positive whole number, or a one-line reason naming the text. */
    private static long number(String text, String what) {
        try {
            long n = Long.parseLong(text);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the same answer as for zero or less
        }
        throw new IllegalArgumentException("'" + text + "' is not " + what + " (a positive whole number)");
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    private static void writeText(PrintStream out, ThreadSummary t, CallStack stack, List<StackFrame> frames) {
        out.println();
        out.println("\"" + oneLine(t.name()) + "\" tid=" + t.tid() + (t.javaState() != null ? " java=" + t.javaState() : "")
                + " captured=" + stack.method().name().toLowerCase().replace('_', ' ')
                + (stack.complete() ? "" : " (incomplete)"));
        if (stack.error() != null) {
            out.println("    [" + stack.error() + "]");
        }
        for (StackFrame f : frames) {
            out.println((f.javaClass() != null ? "    at " : "    ") + oneLine(f.describe()));
        }
    }

    /**
     * A name from the profiled process as it may stand in the text dump: thread and method names are the
     * application's, and one holding a quote or a line break must not end its line or forge another thread or frame.
     * Backslash, quote and control characters are escaped; everything else is kept.
     */
    static String oneLine(String text) {
        return NameEscaping.escape(text, true);
    }

    private static void writeJson(JsonText j, ThreadSummary t, CallStack stack, List<StackFrame> frames) {
        j.beginObject().field("tid", t.tid()).field("name", t.name()).field("javaState", t.javaState())
                .field("capture", stack.method().name()).field("complete", stack.complete()).field("error", stack.error())
                .beginArray("frames");
        for (StackFrame f : frames) {
            j.beginObject().field("kind", f.kind().name()).field("address", "0x" + Long.toHexString(f.address()))
                    .field("module", f.module()).field("symbol", f.symbol()).field("displacement", f.displacement());
            if (f.javaClass() != null) {
                j.field("class", f.javaClass()).field("method", f.javaMethod()).field("file", f.sourceFile())
                        .field("line", f.line());
            }
            j.endObject();
        }
        j.endArray().endObject();
    }

}
