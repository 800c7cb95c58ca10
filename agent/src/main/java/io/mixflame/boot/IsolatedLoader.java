package io.mixflame.boot;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The class loader that holds the profiler and its dependencies, apart from the application's.
 *
 * <p>The jar keeps them under {@value #PREFIX}, a path no class loader of the application looks into, and this
 * loader reads them from there, entry by entry: JNA, SLF4J and Byte Buddy of the profiler's own
 * versions load here even when the application carries others. JNA cannot be relocated to another package (its
 * JNI library binds to its class names), which is why the profiler is isolated rather than shaded.
 *
 * <p>In an agent, JNA is a named module of a layer of its own below this loader ({@link JnaModuleLayer}), granted
 * native access, so that loading its library prints nothing on the application's stderr on JDK 22 and later.
 */
final class IsolatedLoader {
    static final String PREFIX = "MIXFLAME-INF/classes/";
    private static final String GRANT = "io.mixflame.agent.NativeAccessGrant";

    private static ProfilerClassLoader loader;

    private IsolatedLoader() {
    }

    /** The loader an agent start created, or null where no agent was loaded. */
    static synchronized ClassLoader existing() {
        return loader;
    }

    /** The one loader of this JVM, created on first use, for the command-line tool (its own process). */
    static synchronized ClassLoader get(ClassLoader parent) throws IOException, URISyntaxException {
        if (loader == null) {
            JnaSearchPath.presetOnLinux();
            loader = new ProfilerClassLoader(ownJar(), parent);
        }
        return loader;
    }

    /**
     * The one loader of this JVM for the agent: on JDK 22 and later JNA in a module layer between {@code parent} and
     * the profiler's loader, with native access granted; before JDK 22, which has no such warning, the loader is made
     * as for the tool. When the layer cannot be made, likewise, and JNA's warnings are the only difference.
     */
    static synchronized ClassLoader getForAgent(ClassLoader parent, Instrumentation instrumentation)
            throws IOException, URISyntaxException {
        if (loader != null) {
            return loader;
        }
        JnaSearchPath.presetOnLinux();
        if (Runtime.version().feature() < 22) {
            // The layer only quiets JDK 22's native-access warning; building it (module descriptors resolved and
            // a layer defined) is start-up work the service's JIT compiled a few dozen JDK methods for.
            loader = new ProfilerClassLoader(ownJar(), parent);
            openJdkInternals(instrumentation);
            return loader;
        }
        JnaModuleLayer jna;
        try {
            jna = JnaModuleLayer.define(new JarFile(ownJar()), parent);
        } catch (IOException | RuntimeException e) {
            return get(parent);
        }
        loader = new ProfilerClassLoader(ownJar(), jna.loader());
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
            Optional<Module> management = ModuleLayer.boot().findModule("jdk.management");
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

    /** The jar these boot classes were loaded from. */
    static File ownJar() throws URISyntaxException {
        return new File(IsolatedLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * The profiler's loader: classes read straight from the jar's entries under {@value #PREFIX}. Not a
     * {@code URLClassLoader} over a {@code jar:} URL: that makes, for every class, URLs of the entry and a connection
     * to it, string and URL parsing that had the service's JIT compile some 160 JDK methods more while the profiler's
     * 400 classes loaded. Resources, which JNA and the service loader of SLF4J ask for a handful of, are
     * still answered with {@code jar:} URLs.
     *
     * <p>Not registered as parallel capable: such a loader keeps a lock object and an entry for every class name it
     * is ever asked for (some 1 400, the JDK's among them), on the service's heap for as long as the loader lives;
     * this one locks itself while it loads, as loaders did before Java 7 (its parents never call back into it, so
     * none can wait on another).
     */
    static final class ProfilerClassLoader extends ClassLoader {
        private final ZipFile jar;
        private final String jarUrl;
        private final ProtectionDomain domain;

        ProfilerClassLoader(File jarFile, ClassLoader parent) throws IOException {
            super("mixflame", parent);
            this.jar = new ZipFile(jarFile);
            URL location = jarFile.toURI().toURL();
            this.jarUrl = "jar:" + location + "!/";
            this.domain = new ProtectionDomain(new CodeSource(location, (CodeSigner[]) null), null, this, null);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            StringBuilder path = new StringBuilder(PREFIX.length() + name.length() + 6).append(PREFIX);
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                path.append(c == '.' ? '/' : c);
            }
            ZipEntry entry = jar.getEntry(path.append(".class").toString());
            if (entry == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes;
            try (InputStream in = jar.getInputStream(entry)) {
                bytes = in.readAllBytes();
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
            int dot = name.lastIndexOf('.');
            if (dot > 0) {
                String pkg = name.substring(0, dot);
                if (getDefinedPackage(pkg) == null) {
                    definePackage(pkg, null, null, null, null, null, null, null);
                }
            }
            return defineClass(name, bytes, 0, bytes.length, domain);
        }

        @Override
        protected URL findResource(String name) {
            if (jar.getEntry(PREFIX + name) == null) {
                return null;
            }
            try {
                return new URL(jarUrl + PREFIX + name);
            } catch (MalformedURLException e) {
                return null;
            }
        }

        @Override
        protected Enumeration<URL> findResources(String name) {
            URL url = findResource(name);
            return url == null ? Collections.emptyEnumeration() : Collections.enumeration(List.of(url));
        }
    }
}
