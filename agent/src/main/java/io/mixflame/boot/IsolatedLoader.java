package io.mixflame.boot;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader that holds the profiler and its dependencies, apart from the application's.
 *
 * <p>The jar keeps them under {@value #PREFIX}, a path no class loader of the application looks into, and this
 * loader reads them from there through a {@code jar:} URL: JNA, SLF4J and Byte Buddy of the profiler's own
 * versions load here even when the application carries others. JNA cannot be relocated to another package (its
 * JNI library binds to its class names), which is why the profiler is isolated rather than shaded.
 */
final class IsolatedLoader {
    static final String PREFIX = "MIXFLAME-INF/classes/";

    private static URLClassLoader loader;

    private IsolatedLoader() {
    }

    /** The one loader of this JVM, created on first use. */
    static synchronized ClassLoader get(ClassLoader parent) throws MalformedURLException, URISyntaxException {
        if (loader == null) {
            URL inner = new URL("jar:" + ownJar().toURI() + "!/" + PREFIX);
            loader = new URLClassLoader("mixflame", new URL[] {inner}, parent);
        }
        return loader;
    }

    /** The jar these boot classes were loaded from. */
    static File ownJar() throws URISyntaxException {
        return new File(IsolatedLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
