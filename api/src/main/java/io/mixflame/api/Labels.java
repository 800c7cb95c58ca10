package io.mixflame.api;

import io.mixflame.api.internal.LabelFunctions;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

/**
 * Labels for the samples taken while a piece of code runs on the current thread: which tenant, job or request kind
 * the thread works for. With the mixflame agent profiling with {@code labels}, every sample taken meanwhile on that
 * thread carries them ({@code [tenant=acme]} frames in flame graphs, sample labels in pprof); without it, the code
 * just runs: nothing is recorded, allocated or started.
 *
 * <pre>{@code
 * Labels.run("tenant", tenantId, () -> handle(request));
 *
 * try (Labels.Scope scope = Labels.scope(Map.of("tenant", tenantId, "job", "export"))) {
 *     export();
 * }
 * }</pre>
 *
 * <p>Scopes nest: an inner scope adds its labels to those in force (a key it names takes the inner value) and its end
 * restores what was in force before. Labels belong to the thread: work handed to another thread carries none unless
 * that thread enters a scope too.
 *
 * <p>A key is a letter or {@code _}, then up to 63 letters, digits, {@code _}, {@code .} or {@code -}, other than
 * {@code thread} and {@code labels}, which the profiler's outputs use; anything else is refused with
 * {@link IllegalArgumentException}, agent or not. Values are any text, cut by the profiler to 128
 * characters; the profiler keeps a bounded number of distinct sets of labels (past it samples are counted under
 * {@code [labels=other]}), so a value unique to each request (an id) is a poor label.
 */
public final class Labels {
    private static final int MAX_KEY = 64;
    private static final Scope NOTHING = new Scope(0, null);

    private Labels() {
    }

    /** Runs {@code body} with {@code key} = {@code value} added to the current thread's labels. */
    public static void run(String key, String value, Runnable body) {
        check(key, value);
        ToLongBiFunction<String, String> enter = LabelFunctions.enterOne;
        if (enter == null) {
            body.run();
            return;
        }
        long token = enter.applyAsLong(key, value);
        try {
            body.run();
        } finally {
            leave(token);
        }
    }

    /** Runs {@code body} with {@code labels} added to the current thread's labels. */
    public static void run(Map<String, String> labels, Runnable body) {
        String[] pairs = pairs(labels);
        ToLongFunction<String[]> enter = LabelFunctions.enterAll;
        if (enter == null) {
            body.run();
            return;
        }
        long token = enter.applyAsLong(pairs);
        try {
            body.run();
        } finally {
            leave(token);
        }
    }

    /** Returns what {@code body} returns, run with {@code labels} added to the current thread's labels. */
    public static <T> T get(Map<String, String> labels, Supplier<T> body) {
        String[] pairs = pairs(labels);
        ToLongFunction<String[]> enter = LabelFunctions.enterAll;
        if (enter == null) {
            return body.get();
        }
        long token = enter.applyAsLong(pairs);
        try {
            return body.get();
        } finally {
            leave(token);
        }
    }

    /** Adds {@code key} = {@code value} to the current thread's labels until the scope is closed. */
    public static Scope scope(String key, String value) {
        check(key, value);
        ToLongBiFunction<String, String> enter = LabelFunctions.enterOne;
        return enter == null ? NOTHING : new Scope(enter.applyAsLong(key, value), Thread.currentThread());
    }

    /** Adds {@code labels} to the current thread's labels until the scope is closed. */
    public static Scope scope(Map<String, String> labels) {
        String[] pairs = pairs(labels);
        ToLongFunction<String[]> enter = LabelFunctions.enterAll;
        return enter == null ? NOTHING : new Scope(enter.applyAsLong(pairs), Thread.currentThread());
    }

    /** Whether an agent records labels in this JVM now. */
    public static boolean recording() {
        return LabelFunctions.connected();
    }

    private static void leave(long token) {
        LongConsumer exit = LabelFunctions.exit;
        if (exit != null) {
            exit.accept(token);
        }
    }

    private static String[] pairs(Map<String, String> labels) {
        Objects.requireNonNull(labels, "labels");
        String[] pairs = new String[labels.size() * 2];
        int i = 0;
        for (Map.Entry<String, String> e : labels.entrySet()) {
            check(e.getKey(), e.getValue());
            pairs[i++] = e.getKey();
            pairs[i++] = e.getValue();
        }
        return pairs;
    }

    private static void check(String key, String value) {
        Objects.requireNonNull(key, "label key");
        Objects.requireNonNull(value, "label value");
        boolean valid = !key.isEmpty() && key.length() <= MAX_KEY && letter(key.charAt(0));
        for (int i = 1; valid && i < key.length(); i++) {
            char c = key.charAt(i);
            valid = letter(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
        }
        if (!valid || key.equals("thread") || key.equals("labels")) {
            throw new IllegalArgumentException("label key '" + key + "': a letter or _, then up to 63 letters, digits,"
                    + " _, . or -, other than thread and labels");
        }
    }

    private static boolean letter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    /** The labels of a {@link #scope}, until {@link #close()}; close it on the thread that opened it. */
    public static final class Scope implements AutoCloseable {
        private final long token;
        private final Thread owner;
        private boolean closed;

        private Scope(long token, Thread owner) {
            this.token = token;
            this.owner = owner;
        }

        /** Restores the labels in force before the scope; once only, and on the thread that opened it only. */
        @Override
        public void close() {
            if (owner == null || closed || owner != Thread.currentThread()) {
                return;
            }
            closed = true;
            leave(token);
        }
    }
}
