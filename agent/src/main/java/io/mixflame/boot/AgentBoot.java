package io.mixflame.boot;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;

/**
 * Entry point of {@code -javaagent:mixflame.jar=OPTIONS} and of dynamic attach. It only finds the profiler in its
 * isolated loader and hands the options over; nothing here may throw, since an exception out of
 * {@code premain} would stop the application from starting.
 */
public final class AgentBoot {
    private static final String ENTRY = "io.mixflame.agent.AgentEntry";

    private AgentBoot() {
    }

    /** Called by the JVM before {@code main} for {@code -javaagent}. */
    public static void premain(String options, Instrumentation instrumentation) {
        dispatch(options, instrumentation, false);
    }

    /** Called by the JVM when a tool attaches this jar to a running process. */
    public static void agentmain(String options, Instrumentation instrumentation) {
        dispatch(options, instrumentation, true);
    }

    /**
     * Runs one command in the profiler this JVM loaded ({@code io.mixflame.api.Mixflame.execute} calls it by name:
     * the agent's jar is on the system class path once it is loaded, whichever loader the application's classes
     * have).
     *
     * @throws IllegalStateException    when no agent was loaded into this JVM, or the command failed
     * @throws IllegalArgumentException for bad options
     */
    public static String execute(String options) {
        ClassLoader loader = IsolatedLoader.existing();
        if (loader == null) {
            throw new IllegalStateException("the mixflame agent is not loaded in this JVM: start it with"
                    + " -javaagent:mixflame.jar=load (or with options), or attach it");
        }
        try {
            return (String) Class.forName(ENTRY, true, loader).getMethod("execute", String.class).invoke(null, options);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("the command failed: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the profiler cannot be reached: " + e);
        }
    }

    private static void dispatch(String options, Instrumentation instrumentation, boolean attached) {
        try {
            // The profiler starts helper processes from this jar (the helper engine).
            System.setProperty(CliBoot.JAR_PROPERTY, IsolatedLoader.ownJar().getAbsolutePath());
            ClassLoader loader = IsolatedLoader.getForAgent(ClassLoader.getPlatformClassLoader(), instrumentation);
            Class<?> entry = Class.forName(ENTRY, true, loader);
            entry.getMethod("handle", String.class, Instrumentation.class, boolean.class)
                    .invoke(null, options, instrumentation, attached);
        } catch (Throwable t) {
            // The profiler's own logging lives in the loader that just failed, so this is the one place that
            // writes to stderr directly.
            Throwable cause = t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
            System.err.println("[mixflame] ERROR the profiler could not load and is off: " + cause);
        }
    }
}
