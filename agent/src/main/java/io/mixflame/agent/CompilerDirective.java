package io.mixflame.agent;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks HotSpot, once per JVM, to compile the profiler's methods with C1 alone, but for the labels' recorder, which
 * runs on the application's threads. The profiler's code is compiled by the application's JIT, on its CPUs. C2 took
 * about a fifth of a second of compile time for it in the saturated study and, in the steady state, deoptimized its
 * walk now and then when a sample first took a branch C2 had left out (a stack of a kind not seen before), which ran
 * the walk interpreted for a while: samples several times slower than usual, in the tail of the per-sample cost. C1
 * compiles every branch; it cost neither the walk nor the service's steady-state throughput anything that eight
 * interleaved pairs of runs could tell from the noise (BENCHMARKS.md). The directive names the profiler's own
 * packages only, so no method of the application is compiled differently. Added with the
 * {@code Compiler.directives_add} diagnostic command, reached through jdk.management's internal bean (opened to this
 * loader alone by the boot classes); where that is missing (a jlinked runtime without jdk.management) nothing is
 * done.
 */
public final class CompilerDirective {
    private static final Logger LOG = LoggerFactory.getLogger(CompilerDirective.class);
    private static final String[] PACKAGES = {"agent", "boot", "cache", "capture", "cli", "engine", "hotspot", "image",
        "platform", "process", "profile", "report", "stack", "symbolize", "unwind"};
    /** Code of the profiler's that the application's own threads run, per request: labels entered and left. */
    private static final String[] APPLICATION_THREAD_PACKAGES = {"capture/labels", "agent/labels"};
    private static boolean installed;

    private CompilerDirective() {
    }

    /**
     * The directive, as JSON: C2 compiles none of the profiler's methods (HotSpot then compiles them with C1 without
     * profiling, its tier 1, once it finds C2 excluded) but those that run on the application's threads, the labels'
     * recorder: a first directive, matched first, leaves their compilation as it is.
     */
    static String json() {
        return "[{ match: [" + patterns(APPLICATION_THREAD_PACKAGES) + "], c2: { Exclude: false } },\n"
                + " { match: [" + patterns(PACKAGES) + "], c2: { Exclude: true } }]\n";
    }

    /** The directive's patterns for every method of {@code packages} (under {@code io/mixflame/}). */
    private static String patterns(String[] packages) {
        StringBuilder match = new StringBuilder();
        for (String p : packages) {
            match.append(match.length() == 0 ? "" : ", ").append("\"io/mixflame/").append(p).append("/*.*\"");
        }
        return match.toString();
    }

    /** Adds the directive unless it was added already; never throws. */
    public static synchronized void installOnce() {
        if (installed) {
            return;
        }
        installed = true;
        Path file = null;
        try {
            // Its class initializer loads the native library the diagnostic-command bean is bound to, and does nothing
            // else: no MBean server is started, no logging initialized.
            Class.forName("com.sun.management.internal.PlatformMBeanProviderImpl", true, null);
            Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl");
            Method getter = impl.getDeclaredMethod("getDiagnosticCommandMBean");
            getter.setAccessible(true);
            Object bean = getter.invoke(null);
            if (bean == null) {
                return;
            }
            // Not Files.createTempFile: its random names start SecureRandom, some 30 ms and a hundred JDK methods
            // compiled, in the service's start-up; nor the pid, whose ProcessHandle loads two dozen classes more. A
            // name unlikely to be taken, created only when new (O_EXCL: an existing file or link there makes this
            // fail, and the directive is left out).
            file = Path.of(System.getProperty("java.io.tmpdir"), "mixflame-directive-" + System.nanoTime() + "-"
                    + Integer.toHexString(System.identityHashCode(new Object())) + ".json");
            if (file.toString().indexOf(' ') >= 0) {
                // The command line below takes the path as one word.
                LOG.debug("no compiler directive for the profiler's classes: a space in {}", file);
                file = null;
                return;
            }
            Files.writeString(file, json(), StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            // The bean's own command method, not its MBean operation: invoking that first describes every
            // diagnostic command there is (JFR's among them, loading their classes), some 40 ms of start-up.
            Method execute = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
            execute.setAccessible(true);
            Object answer = execute.invoke(bean, "Compiler.directives_add " + file);
            LOG.debug("compiler directive for the profiler's classes: {}", answer);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError | IOException e) {
            Throwable cause = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
            LOG.debug("no compiler directive for the profiler's classes: {}", cause.toString());
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a small file in the temporary directory is all that is left
                }
            }
        }
    }
}
