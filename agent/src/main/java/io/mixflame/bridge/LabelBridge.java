package io.mixflame.bridge;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

/**
 * Where code of any class loader reaches the profiler's label recorder. The agent defines this class in the
 * bootstrap loader, which every loader sees: the advice woven into HTTP servers calls it, and the
 * {@code mixflame-api}'s {@code LabelFunctions} class registers here and is handed the recorder's functions.
 *
 * <p>The functions are of the JDK's own types, so that neither this class nor the API needs a class of the
 * profiler's loader; with none installed every call does nothing. Not part of the profiler's public API.
 */
public final class LabelBridge {
    /** The key of the label the HTTP instrumentation sets. */
    public static final String ENDPOINT = "endpoint";
    private static final String API_SETTER = "set";

    private static volatile ToLongBiFunction<String, String> enterOne;
    private static volatile ToLongFunction<String[]> enterAll;
    private static volatile LongConsumer exit;
    /** Whether API classes are handed the functions ({@code labels=http} records the servers' labels only). */
    private static boolean forApis;
    /** The API classes registered, at most a few (one per class loader that loaded the API); guarded by the class. */
    private static final List<Class<?>> APIS = new ArrayList<>();
    private static final int MAX_APIS = 64;

    /** What is told of each OpenTelemetry context made current; null: nothing. */
    private static volatile Consumer<Object> contexts;
    private static volatile Runnable mounted;
    private static volatile Runnable unmounting;

    private LabelBridge() {
    }

    /**
     * OpenTelemetry's context {@code context} (of whichever copy of OpenTelemetry: the Java agent's shaded one or an
     * application's own) is now current on the calling thread; null: none is. Called by the advice woven into
     * OpenTelemetry's thread-local context storage.
     */
    public static void context(Object context) {
        Consumer<Object> f = contexts;
        if (f != null) {
            f.accept(context);
        }
    }

    /** Installs what is told of contexts made current (null: nothing is told again). */
    public static void installContexts(Consumer<Object> reader) {
        contexts = reader;
    }

    /** A virtual thread has just been mounted (the calling thread); woven into {@code VirtualThread.mount()}. */
    public static void mounted() {
        Runnable r = mounted;
        if (r != null) {
            r.run();
        }
    }

    /** A virtual thread is about to be unmounted; woven into {@code VirtualThread.unmount()}. */
    public static void unmounting() {
        Runnable r = unmounting;
        if (r != null) {
            r.run();
        }
    }

    /** Installs what runs at each mount and unmount of a virtual thread (nulls: nothing). */
    public static void installMounts(Runnable onMount, Runnable onUnmount) {
        mounted = onMount;
        unmounting = onUnmount;
    }

    /** The calling thread now also has {@code key} = {@code value}; returns what restores its labels before. */
    public static long enter(String key, String value) {
        ToLongBiFunction<String, String> f = enterOne;
        return f == null ? 0 : f.applyAsLong(key, value);
    }

    /** The calling thread now also has the labels (key, value, key, value…); returns what restores them. */
    public static long enterAll(String[] keyValues) {
        ToLongFunction<String[]> f = enterAll;
        return f == null ? 0 : f.applyAsLong(keyValues);
    }

    /** Restores the labels {@code token} (from an enter) says; 0 restores nothing. */
    public static void exit(long token) {
        if (token != 0) {
            LongConsumer f = exit;
            if (f != null) {
                f.accept(token);
            }
        }
    }

    /**
     * Installs the recorder's functions (all null: removes them, and every call does nothing again) and hands them,
     * when {@code apis}, to every API class registered (else nulls).
     */
    public static synchronized void install(ToLongBiFunction<String, String> one, ToLongFunction<String[]> all,
                                            LongConsumer leave, boolean apis) {
        enterOne = one;
        enterAll = all;
        exit = leave;
        forApis = apis;
        for (Class<?> api : APIS) {
            hand(api);
        }
    }

    /**
     * Registers an API class, which has a public static {@code set(Object, Object, Object)}, and hands it the
     * functions installed now; the API calls this from its static initializer, and the agent for API classes loaded
     * before it. Returns whether it was registered (a class already registered is handed the functions again).
     */
    public static synchronized boolean register(Class<?> api) {
        if (!APIS.contains(api)) {
            if (APIS.size() >= MAX_APIS) {
                return false;
            }
            APIS.add(api);
        }
        hand(api);
        return true;
    }

    private static void hand(Class<?> api) {
        try {
            Method set = api.getMethod(API_SETTER, Object.class, Object.class, Object.class);
            set.invoke(null, forApis ? enterOne : null, forApis ? enterAll : null, forApis ? exit : null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // An API of another shape: it keeps doing nothing, which is what it does without an agent.
        }
    }
}
