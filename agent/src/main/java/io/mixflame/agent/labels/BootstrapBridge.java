package io.mixflame.agent.labels;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.ToLongBiFunction;
import java.util.function.ToLongFunction;

/**
 * The label bridge ({@code io.mixflame.bridge.LabelBridge}) defined in the bootstrap class loader, which every class
 * loader sees: the code woven into servers of any loader, and the API of any loader, reach the recorder through it.
 * Defined once per JVM, from the class file in the profiler's jar, by the JDK's internal {@code Unsafe}, else as a
 * jar of that one class appended to the bootstrap search path. The profiler's own code only ever reaches it by
 * reflection, so that the bootstrap copy is the only one.
 */
final class BootstrapBridge {
    static final String NAME = "io.mixflame.bridge.LabelBridge";
    /** The API's class that registers with the bridge (mixflame-api). */
    static final String API_CLASS = "io.mixflame.api.internal.LabelFunctions";

    private static final String INTERNAL_PACKAGE = "jdk.internal.misc";

    private static Class<?> bridge;
    /** The bridge of a {@code launch}, defined in a loader of its own between the platform's and the application's. */
    private static Class<?> launched;

    private BootstrapBridge() {
    }

    /**
     * For {@code launch}, which has no instrumentation: the bridge defined in a loader of its own, whose child the
     * application's loader is to be, so that the API in the application finds it (by its own loader's parents).
     * HTTP servers cannot be woven this way; the API's labels can be recorded.
     */
    static synchronized ClassLoader launchLoader() throws IOException {
        byte[] bytes = bridgeBytes();
        ClassLoader loader = new ClassLoader("mixflame-bridge", ClassLoader.getPlatformClassLoader()) {
            private Class<?> defined;

            @Override
            protected synchronized Class<?> findClass(String name) throws ClassNotFoundException {
                if (!name.equals(NAME)) {
                    throw new ClassNotFoundException(name);
                }
                if (defined == null) {
                    defined = defineClass(NAME, bytes, 0, bytes.length);
                }
                return defined;
            }
        };
        try {
            launched = Class.forName(NAME, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IOException("the label bridge could not be defined", e);
        }
        return loader;
    }

    /** The bridge {@link #launchLoader} defined, or null. */
    static synchronized Class<?> launched() {
        return launched;
    }

    private static byte[] bridgeBytes() throws IOException {
        try (InputStream in = BootstrapBridge.class.getClassLoader()
                .getResourceAsStream(NAME.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new IOException("the profiler's jar has no " + NAME);
            }
            return in.readAllBytes();
        }
    }

    /** The bridge in the bootstrap loader, defined now if it is not yet. */
    static synchronized Class<?> define(Instrumentation instrumentation) throws IOException {
        if (bridge != null) {
            return bridge;
        }
        try {
            bridge = Class.forName(NAME, false, null);
            return bridge;
        } catch (ClassNotFoundException e) {
            // Not yet: defined below.
        }
        byte[] bytes = bridgeBytes();
        try {
            bridge = defineWithUnsafe(instrumentation, bytes);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            bridge = null;
        }
        if (bridge == null) {
            bridge = appendToBootstrap(instrumentation, bytes);
        }
        return bridge;
    }

    /**
     * The bridge defined straight into the bootstrap loader by the JDK's internal {@code Unsafe.defineClass}, its
     * package exported to the profiler's module alone through the instrumentation. Unlike a jar appended to the
     * bootstrap search path, this leaves class data sharing on for the other loaders' classes (the JVM turns it off,
     * with a warning on stderr, when the path grows), and unlike {@code sun.misc.Unsafe} it draws no warning.
     */
    private static Class<?> defineWithUnsafe(Instrumentation instrumentation, byte[] bytes)
            throws ReflectiveOperationException {
        Module base = Object.class.getModule();
        instrumentation.redefineModule(base, Set.of(), Map.of(INTERNAL_PACKAGE, Set.of(BootstrapBridge.class.getModule())),
                Map.of(), Set.of(), Map.of());
        Class<?> unsafeClass = Class.forName(INTERNAL_PACKAGE + ".Unsafe");
        Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
        return (Class<?>) unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                ClassLoader.class, ProtectionDomain.class).invoke(unsafe, NAME, bytes, 0, bytes.length, null, null);
    }

    /**
     * The bridge from a jar of that one class appended to the bootstrap search path, where the injector cannot
     * define it: the JVM then says on stderr that class data sharing is off for other loaders' classes.
     */
    private static Class<?> appendToBootstrap(Instrumentation instrumentation, byte[] bytes) throws IOException {
        Path jar = Files.createTempFile("mixflame-bridge-", ".jar");
        jar.toFile().deleteOnExit();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(NAME.replace('.', '/') + ".class"));
            out.write(bytes);
            out.closeEntry();
        }
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
        try {
            return Class.forName(NAME, false, null);
        } catch (ClassNotFoundException e) {
            throw new IOException("the label bridge could not be defined in the bootstrap loader", e);
        }
    }

    /** Installs the functions in the bridge (nulls: uninstalls); the API classes get them when {@code apis}. */
    static void install(Class<?> bridge, ToLongBiFunction<String, String> one, ToLongFunction<String[]> all,
                        LongConsumer exit, boolean apis) {
        invoke(bridge, "install", new Class<?>[] {ToLongBiFunction.class, ToLongFunction.class, LongConsumer.class,
                boolean.class}, one, all, exit, apis);
    }

    /** Installs what is told of OpenTelemetry's contexts made current (null: nothing is told again). */
    static void installContexts(Class<?> bridge, Consumer<Object> reader) {
        invoke(bridge, "installContexts", new Class<?>[] {Consumer.class}, reader);
    }

    /** Installs what runs at each mount and unmount of a virtual thread (nulls: nothing). */
    static void installMounts(Class<?> bridge, Runnable onMount, Runnable onUnmount) {
        invoke(bridge, "installMounts", new Class<?>[] {Runnable.class, Runnable.class}, onMount, onUnmount);
    }

    /**
     * Registers with the bridge the API classes loaded before it existed (an agent attached to a running
     * application); those loaded later register themselves. Returns how many were found.
     */
    static int registerLoadedApis(Class<?> bridge, Instrumentation instrumentation) {
        int found = 0;
        for (Class<?> c : instrumentation.getAllLoadedClasses()) {
            if (c.getName().equals(API_CLASS)) {
                invoke(bridge, "register", new Class<?>[] {Class.class}, c);
                found++;
            }
        }
        return found;
    }

    private static void invoke(Class<?> bridge, String name, Class<?>[] types, Object... args) {
        try {
            Method m = bridge.getMethod(name, types);
            m.invoke(null, args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("label bridge " + name + ": " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("label bridge " + name + ": " + e, e);
        }
    }
}
