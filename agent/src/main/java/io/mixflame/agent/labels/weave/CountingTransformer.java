package io.mixflame.agent.labels.weave;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.bytebuddy.dynamic.ClassFileLocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The common half of the transformers: every class but the few named passes by a comparison of its name; a class
 * woven gets a read edge to the bridge's module and is counted; one that cannot be woven is counted, logged once
 * (under the option that asked, {@code what}) and loads as it is. Subclasses say which classes and weave them.
 */
abstract class CountingTransformer implements ClassFileTransformer {
    private static final Logger LOG = LoggerFactory.getLogger(CountingTransformer.class);
    private static final int MAX_LOGGED = 16;

    /** Where the advice classes' class files are read. */
    final ClassFileLocator advice = ClassFileLocator.ForClassLoader.of(CountingTransformer.class.getClassLoader());
    private final Instrumentation instrumentation;
    private final Module bridge;
    private final String what;
    private final AtomicInteger woven = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final Set<String> logged = Collections.synchronizedSet(new HashSet<>());

    CountingTransformer(Instrumentation instrumentation, Module bridge, String what) {
        this.instrumentation = instrumentation;
        this.bridge = bridge;
        this.what = what;
    }

    /** Whether the class of internal name {@code name} is one this transformer weaves. */
    abstract boolean weaves(String name);

    /** The woven class file of {@code className}, read from {@code target}; null to leave it as it is. */
    abstract byte[] weave(String className, byte[] classFile, ClassFileLocator target) throws Exception;

    final int woven() {
        return woven.get();
    }

    final int failed() {
        return failed.get();
    }

    @Override
    public final byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
                                  ProtectionDomain domain, byte[] classFile) {
        if (className == null || !weaves(className)) {
            return null;
        }
        try {
            byte[] result = weave(className, classFile, AdviceWeaving.locatorOf(loader));
            if (result == null) {
                return null;
            }
            HttpEndpointInstrumentation.readBridge(instrumentation, module, bridge);
            woven.incrementAndGet();
            LOG.debug("{}: woven {}", what, className);
            return result;
        } catch (Throwable e) {
            // Never the application's problem: the class loads as it is.
            failed.incrementAndGet();
            if (logged.size() < MAX_LOGGED && logged.add(className)) {
                LOG.warn("{}: {} could not be woven and is left as it is: {}", what, className.replace('/', '.'),
                        e.toString());
            }
            return null;
        }
    }
}
