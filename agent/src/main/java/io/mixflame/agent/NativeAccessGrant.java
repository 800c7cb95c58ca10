package io.mixflame.agent;

import java.lang.reflect.Method;

/**
 * Grants native access to one named module of the profiler's own (JNA's), as {@code --enable-native-access} would,
 * without extending it to the application's modules. Runs in the profiler's loader, to which the boot classes have
 * opened {@code java.lang} for this one call.
 */
public final class NativeAccessGrant {
    private NativeAccessGrant() {
    }

    /**
     * Grants native access to {@code module}.
     *
     * @throws ReflectiveOperationException when the JDK has no such grant (before JDK 22) or refuses it
     */
    public static void grant(Module module) throws ReflectiveOperationException {
        if (!module.isNamed()) {
            throw new IllegalArgumentException("native access can only be granted to a named module");
        }
        Method enable = Module.class.getDeclaredMethod("implAddEnableNativeAccess");
        enable.setAccessible(true);
        enable.invoke(module);
    }
}
