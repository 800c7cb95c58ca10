package io.mixflame.boot;

/**
 * Gives JNA its platform library search path before it first loads, on Linux, so that it does not find one itself:
 * JNA otherwise runs {@code /sbin/ldconfig -p} in a child process at its first use — a fork of the service's JVM
 * and some 20 ms of its start-up — only to learn directories that the profiler's libraries (libc, by
 * its soname) never need. JNA sets this system property itself once it has found a path; a value set beforehand
 * (by the user, or here) is used as it is. The value is the directories JNA lists before asking ldconfig.
 */
final class JnaSearchPath {
    static final String PROPERTY = "jna.platform.library.path";
    static final String LINUX_X86_64 = "/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu:/usr/lib64:/lib64:/usr/lib:/lib";

    private JnaSearchPath() {
    }

    /** Sets the path where it is unset, on x86-64 Linux only; never fails. */
    static void presetOnLinux() {
        try {
            if (System.getProperty(PROPERTY) == null && "Linux".equals(System.getProperty("os.name"))
                    && "amd64".equals(System.getProperty("os.arch"))) {
                System.setProperty(PROPERTY, LINUX_X86_64);
            }
        } catch (SecurityException e) {
            // JNA finds its path itself.
        }
    }
}
