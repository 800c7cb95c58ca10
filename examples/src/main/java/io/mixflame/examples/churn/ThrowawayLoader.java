package io.mixflame.examples.churn;

/**
 * A class loader that defines one class itself from given bytes, and asks its parent for everything else. Once
 * nothing refers to the loader, its class, or an instance, a full GC can unload the class.
 */
final class ThrowawayLoader extends ClassLoader {
    private final String className;
    private final byte[] bytes;

    ThrowawayLoader(ClassLoader parent, String className, byte[] bytes) {
        super("throwaway", parent);
        this.className = className;
        this.bytes = bytes;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(className)) {
            return super.loadClass(name, resolve);
        }
        // Child first for this one name: the parent has the same bytes, and its copy would never unload.
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            return c != null ? c : defineClass(name, bytes, 0, bytes.length);
        }
    }
}
