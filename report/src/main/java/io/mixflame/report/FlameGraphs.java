package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.Profile;
import io.mixflame.profile.ProfileInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.FlameGraph;

/** Glue to async-profiler's FlameGraph renderer, shared by the HTML and diff writers. */
final class FlameGraphs {

    // FlameGraph recurses once per frame of depth when it draws, diffs or parses a graph, a few hundred bytes
    // a level: far more than a default thread stack holds for the deepest stack a read lets in.
    private static final long DEEP_STACK_BYTES = 64L << 20;

    private FlameGraphs() {
    }

    /** Work with FlameGraph that may fail with an IOException. */
    @FunctionalInterface
    interface ConverterTask<T> {
        T call() throws IOException;
    }

    /**
     * Runs {@code task} on a thread whose stack holds FlameGraph's recursion over a stack of
     * {@link ReadBounds#DEFAULT}'s depth, and waits for it; what the task throws is thrown here.
     */
    static <T> T onDeepStack(ConverterTask<T> task) throws IOException {
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread worker = new Thread(null, () -> {
            try {
                result[0] = task.call();
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, "mixflame-flamegraph", DEEP_STACK_BYTES);
        worker.setDaemon(true);
        worker.start();
        boolean interrupted = false;
        while (true) {
            try {
                worker.join();
                break;
            } catch (InterruptedException e) {
                // The task holds the caller's stream; returning before it ends would let both write.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable t = failure[0];
        if (t instanceof IOException e) {
            throw e;
        }
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }

    /** FlameGraph's frame type byte for a frame (one.convert.Frame.TYPE_*), which sets its colour. */
    static byte typeOf(Frame frame) {
        return switch (frame.type()) {
            case INTERPRETED -> 0;
            case JIT_COMPILED -> 1;
            // async-profiler colours the class of an allocation or a lock as it colours inlined frames.
            case INLINED, CLASS -> 2;
            // C++ gets its own colour in FlameGraph; "::" is how its names show it.
            case NATIVE -> frame.name().contains("::") ? (byte) 4 : (byte) 3;
            case KERNEL -> 5;
            case C1_COMPILED -> 6;
            case STUB -> 4;
            // The renderer's palette has a colour per kind of code and no more (a type past it breaks the page):
            // threads, markers and labels share native code's, and their brackets tell them apart.
            case THREAD, MARKER, LABEL -> 3;
        };
    }

    /** A FlameGraph holding every stack of the profile, counted in samples, frames spelled in {@code style}. */
    static FlameGraph build(Profile profile, Arguments args, FrameStyle style) {
        FlameGraph graph = new FlameGraph(args);
        addAll(graph, profile, 1.0, style);
        return graph;
    }

    /**
     * Adds the profile's stacks with their sample counts multiplied by {@code scale} and rounded. Names carry no
     * type suffix: the graph colours frames by type instead.
     */
    static void addAll(FlameGraph graph, Profile profile, double scale, FrameStyle style) {
        CallStack stack = new CallStack();
        // Sanitized like collapsed output, so a graph parsed back to collapsed stacks stays one line each.
        String[] names = CollapsedFrames.spellAll(profile, style, false);
        byte[] types = new byte[names.length];
        for (int i = 0; i < types.length; i++) {
            types[i] = typeOf(profile.frame(i));
        }
        for (Profile.Stack s : profile.stacks()) {
            stack.clear();
            for (int id : s.frameIds()) {
                stack.push(names[id], types[id]);
            }
            long ticks = scale == 1.0 ? s.samples() : Math.round(s.samples() * scale);
            if (ticks > 0) {
                graph.addSample(stack, ticks);
            }
        }
    }

    /**
     * Writes the graph as HTML without closing {@code out}, failing if any write failed. The frame names go
     * through {@link ScriptSafeHtmlStream}: they come from the profiled application and must not be able to
     * run script in the page.
     */
    static void dumpHtml(FlameGraph graph, OutputStream out) throws IOException {
        // PrintStream records write errors instead of throwing them; they must not pass unnoticed.
        PrintStream ps = new PrintStream(new ScriptSafeHtmlStream(new NonClosingOutputStream(out)), false,
                StandardCharsets.UTF_8);
        graph.dump(ps);
        ps.close();
        if (ps.checkError()) {
            throw new IOException("could not write the flame graph");
        }
    }

    /**
     * Text safe as the page's title: the renderer inserts it into an {@code <h1>} as it is, and reading a page
     * back expects that element on one line.
     */
    static String htmlTitle(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace('\n', ' ').replace('\r', ' ');
    }

    /** {@code 1234567} as {@code 1 234 567}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n).replace(',', ' ');
    }

    /** {@code cpu profile (jfr engine)}. */
    static String describe(ProfileInfo info) {
        return info.event() + " profile (" + info.engine() + " engine)";
    }
}
