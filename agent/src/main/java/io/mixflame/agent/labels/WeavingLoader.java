package io.mixflame.agent.labels;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The weaving ({@code io.mixflame.agent.labels.weave}: HTTP servers, OpenTelemetry's context storage) and Byte Buddy,
 * loaded only when {@code labels} asks for HTTP labels or {@code traces} for spans: they travel as one jar inside the
 * profiler's ({@value #JAR}), copied once per JVM to a temporary file and opened by a loader of their own below the
 * profiler's. Kept apart because the
 * directory of every jar a JVM has open stays on its heap, and Byte Buddy's is three quarters of the profiler's
 * entries. Where the classes are on the profiler's own class path (its unit tests), they are used from there.
 */
final class WeavingLoader {
    static final String JAR = "weaving.jar";
    private static final String ENTRY = "io.mixflame.agent.labels.weave.HttpEndpointInstrumentation";
    private static final String CONTEXTS = "io.mixflame.agent.labels.weave.SpanContextInstrumentation";

    private static ClassLoader loader;
    private static boolean woven;
    private static boolean contextsWoven;

    private WeavingLoader() {
    }

    /** Weaves the HTTP servers once per JVM, calling {@code bridge}. */
    static synchronized void installOnce(Instrumentation instrumentation, Class<?> bridge) throws IOException {
        call(ENTRY, "installOnce", new Class<?>[] {Instrumentation.class, Class.class}, instrumentation, bridge);
        woven = true;
    }

    /** Weaves OpenTelemetry's context storages once per JVM, calling {@code bridge}. */
    static synchronized void installContextsOnce(Instrumentation instrumentation, Class<?> bridge)
            throws IOException {
        call(CONTEXTS, "installOnce", new Class<?>[] {Instrumentation.class, Class.class}, instrumentation, bridge);
        contextsWoven = true;
    }

    /** What of the HTTP servers was woven so far, or an empty string when nothing was asked to be. */
    static synchronized String describe() {
        return woven ? describe(ENTRY) : "";
    }

    /** What of OpenTelemetry's context storage was woven so far, or an empty string when nothing was asked to be. */
    static synchronized String describeContexts() {
        return contextsWoven ? describe(CONTEXTS) : "";
    }

    private static String describe(String entry) {
        try {
            return (String) call(entry, "describe", new Class<?>[0]);
        } catch (IOException e) {
            return "";
        }
    }

    private static Object call(String className, String method, Class<?>[] types, Object... args)
            throws IOException {
        try {
            return Class.forName(className, true, loader()).getMethod(method, types).invoke(null, args);
        } catch (InvocationTargetException e) {
            throw new IOException("weaving failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IOException("weaving failed: " + e, e);
        }
    }

    private static synchronized ClassLoader loader() throws IOException {
        if (loader != null) {
            return loader;
        }
        ClassLoader own = WeavingLoader.class.getClassLoader();
        try (InputStream in = WeavingLoader.class.getResourceAsStream(JAR)) {
            if (in == null) {
                loader = own;
                return loader;
            }
            Path copy = Files.createTempFile("mixflame-weaving-", ".jar");
            copy.toFile().deleteOnExit();
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            loader = new URLClassLoader("mixflame-weaving", new URL[] {copy.toUri().toURL()}, own);
            return loader;
        }
    }
}
