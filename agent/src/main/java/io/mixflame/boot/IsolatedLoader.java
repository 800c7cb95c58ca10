package io.mixflame.boot;

import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The class loader that holds the profiler and its dependencies, apart from the application's.
 *
 * <p>The jar keeps them under {@value #PREFIX}, a path no class loader of the application looks into, and this
 * loader reads them from there through a {@code jar:} URL: JNA, SLF4J and Byte Buddy of the profiler's own
 * versions load here even when the application carries others. JNA cannot be relocated to another package (its
 * JNI library binds to its class names), which is why the profiler is isolated rather than shaded.
 *
 * <p>In an agent, JNA is a named module of a layer of its own below this loader ({@link JnaModuleLayer}), granted
 * native access, so that loading its library prints nothing on the application's stderr on JDK 22 and later.
 */
final class IsolatedLoader {
    static final String PREFIX = "MIXFLAME-INF/classes/";
    private static final String GRANT = "io.mixflame.agent.NativeAccessGrant";

    private static URLClassLoader loader;

    private IsolatedLoader() {
    }

    /** The one loader of this JVM, created on first use, for the command-line tool (its own process). */
    static synchronized ClassLoader get(ClassLoader parent) throws MalformedURLException, URISyntaxException {
        if (loader == null) {
            JnaSearchPath.presetOnLinux();
            loader = new ProfilerClassLoader(new URL[] {inner()}, parent);
        }
        return loader;
    }

    /**
     * The one loader of this JVM for the agent: on JDK 22 and later JNA in a module layer between {@code parent} and
     * the profiler's loader, with native access granted; before JDK 22, which has no such warning, the loader is made
     * as for the tool. When the layer cannot be made, likewise, and JNA's warnings are the only difference.
     */
    static synchronized ClassLoader getForAgent(ClassLoader parent, Instrumentation instrumentation)
            throws MalformedURLException, URISyntaxException {
        if (loader != null) {
            return loader;
        }
        JnaSearchPath.presetOnLinux();
        if (Runtime.version().feature() < 22) {
            // The layer only quiets JDK 22's native-access warning; building it (module descriptors resolved and
            // a layer defined) is start-up work the service's JIT compiled a few dozen JDK methods for.
            loader = new ProfilerClassLoader(new URL[] {inner()}, parent);
            openJdkInternals(instrumentation);
            return loader;
        }
        JnaModuleLayer jna;
        try {
            jna = JnaModuleLayer.define(new JarFile(ownJar()), parent);
        } catch (IOException | RuntimeException e) {
            return get(parent);
        }
        loader = new ProfilerClassLoader(new URL[] {inner()}, jna.loader());
        openJdkInternals(instrumentation);
        grantNativeAccess(jna.module());
        return loader;
    }

    /**
     * Opens to the profiler's loader alone (not to the application) the two JDK packages it reaches into: java.lang,
     * to grant native access to its JNA (JDK 22 on), and jdk.management's internal package, to add a compiler
     * directive for its own classes ({@code io.mixflame.agent.CompilerDirective}). What cannot be opened is left:
     * each use checks for itself.
     */
    private static void openJdkInternals(Instrumentation instrumentation) {
        if (instrumentation == null) {
            return;
        }
        Set<Module> profiler = Set.of(loader.getUnnamedModule());
        try {
            if (Runtime.version().feature() >= 22) {
                instrumentation.redefineModule(Object.class.getModule(), Set.of(), Map.of(),
                        Map.of("java.lang", profiler), Set.of(), Map.of());
            }
            java.util.Optional<Module> management = ModuleLayer.boot().findModule("jdk.management");
            if (management.isPresent()) {
                instrumentation.redefineModule(management.get(), Set.of(), Map.of(),
                        Map.of("com.sun.management.internal", profiler), Set.of(), Map.of());
            }
        } catch (RuntimeException e) {
            // A JDK that refuses: native-access warnings, and no directive.
        }
    }

    /** Has code in the profiler's loader grant native access to the JNA module; nothing to do before JDK 22. */
    private static void grantNativeAccess(Module jna) {
        if (Runtime.version().feature() < 22) {
            return;
        }
        try {
            Class.forName(GRANT, true, loader).getMethod("grant", Module.class).invoke(null, jna);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // JNA then loads as it would without the layer, with the JDK's warning.
        }
    }

    private static URL inner() throws MalformedURLException, URISyntaxException {
        return new URL("jar:" + ownJar().toURI() + "!/" + PREFIX);
    }

    /** The jar these boot classes were loaded from. */
    static File ownJar() throws URISyntaxException {
        return new File(IsolatedLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * The profiler's loader. Not registered as parallel capable, unlike {@link URLClassLoader} itself: such a loader
     * keeps a lock object and an entry for every class name it is ever asked for (some 1 400, the JDK's among them),
     * on the service's heap for as long as the loader lives; this one locks itself while it loads, as loaders did
     * before Java 7 (its parents never call back into it, so none can wait on another).
     */
    private static final class ProfilerClassLoader extends URLClassLoader {
        ProfilerClassLoader(URL[] urls, ClassLoader parent) {
            super("mixflame", urls, parent);
        }
    }
}
