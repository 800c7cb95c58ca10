package io.mixflame.engine.jfr;

/**
 * Whether this runtime has the JDK's events that allocation and lock profiles are made of. Refers to no
 * {@code jdk.jfr} class, so it loads everywhere.
 */
public final class JdkEvents {
    private JdkEvents() {
    }

    /** Null when JFR can be streamed here; else why not, in one line. */
    public static String unavailableReason() {
        if (ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
            return "this Java runtime has no jdk.jfr module (a jlinked runtime without it), whose events "
                    + "allocation and lock profiles are made of";
        }
        return null;
    }
}
