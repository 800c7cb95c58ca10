package io.mixflame.boot;

import java.lang.reflect.InvocationTargetException;

/** {@code java -jar mixflame.jar COMMAND …}: runs the command-line tool from the isolated loader. */
public final class CliBoot {
    private static final String MAIN = "io.mixflame.cli.Main";
    /** Tells the tool which jar to load into other JVMs; set here because only the boot classes know it. */
    static final String JAR_PROPERTY = "mixflame.jar";

    private CliBoot() {
    }

    public static void main(String[] args) {
        try {
            String jar = IsolatedLoader.ownJar().getAbsolutePath();
            // Before the tool's classes load: the JVM that relaunches does nothing but wait.
            Integer relaunched = ToolJvmRelaunch.run(args, jar);
            if (relaunched != null) {
                System.exit(relaunched);
            }
            System.setProperty(JAR_PROPERTY, jar);
            ClassLoader loader = IsolatedLoader.get(ClassLoader.getSystemClassLoader());
            Thread.currentThread().setContextClassLoader(loader);
            Class<?> main = Class.forName(MAIN, true, loader);
            main.getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            System.err.println("mixflame: " + e.getCause());
            System.exit(1);
        } catch (Throwable t) {
            System.err.println("mixflame: the tool could not load: " + t);
            System.exit(1);
        }
    }
}
