package io.mixflame.boot;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * JNA as a named module of its own, in a module layer whose loader sits between the platform loader and the
 * profiler's isolated loader. From JDK 22 on, a library loaded from an unnamed module without native access makes the
 * JVM print warnings on the application's stderr; native access can be granted to one named module without touching
 * the application's own (unnamed) modules, which is what the agent does with this module.
 */
final class JnaModuleLayer {
    static final String MODULE = "com.sun.jna";
    private static final String JNA_PATH = "com/sun/jna/";

    private final Module module;

    private JnaModuleLayer(Module module) {
        this.module = module;
    }

    /**
     * Defines the layer from the JNA classes nested in the agent's jar under {@link IsolatedLoader#PREFIX}.
     *
     * @param jar    the agent's jar, kept open for the life of the JVM (its loader never goes away)
     * @param parent the loader JNA's loader delegates to
     */
    static JnaModuleLayer define(JarFile jar, ClassLoader parent) {
        Set<String> packages = new HashSet<>();
        Enumeration<JarEntry> entries = jar.entries();
        String prefix = IsolatedLoader.PREFIX + JNA_PATH;
        while (entries.hasMoreElements()) {
            String name = entries.nextElement().getName();
            if (name.startsWith(prefix) && name.endsWith(".class")) {
                String path = name.substring(IsolatedLoader.PREFIX.length(), name.lastIndexOf('/'));
                packages.add(path.replace('/', '.'));
            }
        }
        ModuleDescriptor descriptor = ModuleDescriptor.newAutomaticModule(MODULE).packages(packages).build();
        ModuleReference reference = new NestedReference(descriptor, jar);
        ModuleFinder finder = new ModuleFinder() {
            @Override
            public Optional<ModuleReference> find(String name) {
                return name.equals(MODULE) ? Optional.of(reference) : Optional.empty();
            }

            @Override
            public Set<ModuleReference> findAll() {
                return Set.of(reference);
            }
        };
        Configuration configuration = ModuleLayer.boot().configuration()
                .resolve(finder, ModuleFinder.of(), Set.of(MODULE));
        ModuleLayer layer = ModuleLayer.defineModulesWithOneLoader(configuration, List.of(ModuleLayer.boot()), parent)
                .layer();
        return new JnaModuleLayer(layer.findModule(MODULE).orElseThrow());
    }

    /** The JNA module. */
    Module module() {
        return module;
    }

    /** The loader of JNA's classes. */
    ClassLoader loader() {
        return module.getClassLoader();
    }

    /** Serves the module's content from the entries under the prefix of the agent's jar. */
    private static final class NestedReference extends ModuleReference {
        private final JarFile jar;

        NestedReference(ModuleDescriptor descriptor, JarFile jar) {
            super(descriptor, URI.create("jar:" + new File(jar.getName()).toURI() + "!/" + IsolatedLoader.PREFIX));
            this.jar = jar;
        }

        @Override
        public ModuleReader open() {
            return new ModuleReader() {
                @Override
                public Optional<URI> find(String name) {
                    JarEntry entry = entry(name);
                    return entry == null ? Optional.empty()
                            : Optional.of(URI.create(location().orElseThrow() + name));
                }

                @Override
                public Optional<InputStream> open(String name) throws IOException {
                    JarEntry entry = entry(name);
                    return entry == null ? Optional.empty() : Optional.of(jar.getInputStream(entry));
                }

                @Override
                public Stream<String> list() {
                    return jar.stream().map(JarEntry::getName)
                            .filter(n -> n.startsWith(IsolatedLoader.PREFIX + JNA_PATH))
                            .map(n -> n.substring(IsolatedLoader.PREFIX.length()));
                }

                @Override
                public void close() {
                    // the jar stays open: classes and JNA's native library are read from it for the JVM's life
                }
            };
        }

        /** Only JNA's own entries belong to the module; the rest of the jar is the isolated loader's. */
        private JarEntry entry(String name) {
            return name.startsWith(JNA_PATH) ? jar.getJarEntry(IsolatedLoader.PREFIX + name) : null;
        }
    }
}
