package io.mixflame.api.internal;

import java.util.function.LongConsumer;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

/**
 * Not API: where the mixflame agent hands this copy of the API its label recorder. At its first use the class looks
 * for the agent's bridge among its loader's parents and registers with it; an agent attached later finds it among
 * the loaded classes. Without an agent the functions stay null and {@code Labels} does nothing.
 */
public final class LabelFunctions {
    private static final String BRIDGE = "io.mixflame.bridge.LabelBridge";

    /** Enters one label: key, value; returns the token that restores the labels before. Null: no agent. */
    public static volatile ToLongBiFunction<String, String> enterOne;
    /** Enters labels given as key, value, key, value…; returns the token. Null: no agent. */
    public static volatile ToLongFunction<String[]> enterAll;
    /** Restores the labels a token says. Null: no agent. */
    public static volatile LongConsumer exit;

    static {
        try {
            // Through this class's own loader and its parents: the agent defines the bridge in the bootstrap loader,
            // or, under the profiler's launch command, in a loader above the application's.
            Class<?> bridge = Class.forName(BRIDGE, true, LabelFunctions.class.getClassLoader());
            bridge.getMethod("register", Class.class).invoke(null, LabelFunctions.class);
        } catch (ClassNotFoundException e) {
            // No agent in this JVM (yet): labels cost nothing.
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // A bridge of another shape: the same as none.
        }
    }

    private LabelFunctions() {
    }

    /** Called by the agent's bridge, with the recorder's functions or with nulls when profiling stops. */
    @SuppressWarnings("unchecked")
    public static void set(Object one, Object all, Object leave) {
        enterOne = (ToLongBiFunction<String, String>) one;
        enterAll = (ToLongFunction<String[]>) all;
        exit = (LongConsumer) leave;
    }

    /** Whether the class is loaded and set up; touching it runs the look-up above once. */
    public static boolean connected() {
        return enterOne != null;
    }
}
