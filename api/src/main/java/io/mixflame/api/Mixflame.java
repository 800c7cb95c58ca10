package io.mixflame.api;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Profiling commands from the application itself, as async-profiler's {@code AsyncProfiler.execute} gives them: the
 * agent's options, comma-separated, run by the profiler in this JVM.
 *
 * <pre>{@code
 * Mixflame.execute("start,event=cpu,interval=5ms,file=/tmp/slow-request.html");
 * handleSlowRequest();
 * Mixflame.stop();   // writes /tmp/slow-request.html
 * }</pre>
 *
 * <p>The agent must be loaded into the JVM: {@code -javaagent:mixflame.jar=load} loads it without profiling (any
 * other options start profiling at once), and an attach loads it too. Without it each command throws
 * {@link IllegalStateException} saying so. The commands are those of {@code -javaagent} and {@code attach}: {@code
 * start}, {@code stop}, {@code dump}, {@code status}, with any options; the environment's options
 * ({@code MIXFLAME_OPTIONS}, Pyroscope's settings) are read at {@code -javaagent} only.
 */
public final class Mixflame {
    private static final String BOOT = "io.mixflame.boot.AgentBoot";
    private static volatile Method boot;

    private Mixflame() {
    }

    /**
     * Runs one command.
     *
     * @param options the agent's options, such as {@code start,event=wall,file=/tmp/p.jfr}
     * @return what the command did, one line
     * @throws IllegalArgumentException for bad options, with a one-line message
     * @throws IllegalStateException    where no agent is loaded, or the command failed (already profiling, not
     *                                  profiling), with its message
     */
    public static String execute(String options) {
        Method execute = boot();
        if (execute == null) {
            throw new IllegalStateException("the mixflame agent is not loaded in this JVM: start it with"
                    + " -javaagent:mixflame.jar=load (or with options), or attach it");
        }
        try {
            return (String) execute.invoke(null, options);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("the command failed: " + e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the mixflame agent cannot be reached: " + e.getMessage());
        }
    }

    /** Starts profiling with {@code options} ({@code event=cpu,file=…}). */
    public static String start(String options) {
        return execute(options == null || options.isEmpty() ? "start" : "start," + options);
    }

    /** Stops profiling and writes the profile where its {@code file=} said. */
    public static String stop() {
        return execute("stop");
    }

    /** Writes the profile so far to {@code file} (its extension gives the format) and goes on profiling. */
    public static String dump(String file) {
        return execute("dump,file=" + file);
    }

    /** Whether profiling runs, with which engine, and what it has gathered. */
    public static String status() {
        return execute("status");
    }

    /** The agent's command, looked up until found (an agent may attach later): its jar is then on the system class path. */
    private static Method boot() {
        Method m = boot;
        if (m == null) {
            try {
                m = Class.forName(BOOT, true, ClassLoader.getSystemClassLoader()).getMethod("execute", String.class);
                boot = m;
            } catch (ClassNotFoundException | NoSuchMethodException | LinkageError e) {
                return null;
            }
        }
        return m;
    }
}
