package io.mixflame.testapp;

/**
 * Run by {@code launch}: prints what the application sees of its surroundings — its thread, its arguments, its
 * class path, whether the profiler's classes are visible to it — and throws when its first argument is
 * {@code throw}.
 */
public final class LaunchProbeApp {
    private LaunchProbeApp() {
    }

    public static void main(String[] args) {
        System.out.println("probe: thread " + Thread.currentThread().getName());
        System.out.println("probe: args " + String.join("|", args));
        System.out.println("probe: class path " + System.getProperty("java.class.path"));
        System.out.println("probe: context loader is mine "
                + (Thread.currentThread().getContextClassLoader() == LaunchProbeApp.class.getClassLoader()));
        for (String name : new String[] {"io.mixflame.cli.Main", "io.mixflame.agent.AgentEntry", "com.sun.jna.Native"}) {
            try {
                Class.forName(name, false, LaunchProbeApp.class.getClassLoader());
                System.out.println("probe: sees " + name);
            } catch (ClassNotFoundException e) {
                System.out.println("probe: cannot see " + name);
            }
        }
        if (args.length > 0 && args[0].equals("throw")) {
            throw new IllegalStateException("thrown by the application");
        }
    }
}
