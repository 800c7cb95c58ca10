package io.mixflame.cli;

import io.mixflame.stack.CallStack;
import io.mixflame.stack.CaptureOptions;
import io.mixflame.stack.ProcessStackWalker;
import io.mixflame.stack.StackFrame;
import io.mixflame.stack.ThreadSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code stacks PID [--format text|json] [--java-only|--native-only] [--max-frames N]}: every thread of a process
 * once, with its frames, Java and native, innermost first; like jstack with the native frames in place, or, for a
 * process without a JVM, like gdb's {@code thread apply all bt}.
 */
final class StacksCommand {
    static final String USAGE = "usage: stacks PID [--format text|json] [--java-only | --native-only] [--max-frames N]";

    private StacksCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.println(USAGE);
            return 2;
        }
        long pid;
        boolean json = false;
        boolean javaOnly = false;
        boolean nativeOnly = false;
        int maxFrames = 2048;
        try {
            pid = Long.parseLong(args.get(0));
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
                    case "--max-frames" -> maxFrames = Integer.parseInt(value(args, ++i, "--max-frames"));
                    default -> throw new IllegalArgumentException("unknown option '" + args.get(i) + "'");
                }
            }
            if (javaOnly && nativeOnly) {
                throw new IllegalArgumentException("--java-only and --native-only exclude each other");
            }
            if (maxFrames <= 0) {
                throw new IllegalArgumentException("--max-frames must be positive");
            }
        } catch (NumberFormatException e) {
            err.println("mixflame stacks: not a number: " + e.getMessage());
            return 2;
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
        try (ProcessStackWalker walker = ProcessStackWalker.attach(pid)) {
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

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    private static void writeText(PrintStream out, ThreadSummary t, CallStack stack, List<StackFrame> frames) {
        out.println();
        out.println("\"" + t.name() + "\" tid=" + t.tid() + (t.javaState() != null ? " java=" + t.javaState() : "")
                + " captured=" + stack.method().name().toLowerCase().replace('_', ' ')
                + (stack.complete() ? "" : " (incomplete)"));
        if (stack.error() != null) {
            out.println("    [" + stack.error() + "]");
        }
        for (StackFrame f : frames) {
            out.println((f.javaClass() != null ? "    at " : "    ") + f.describe());
        }
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
