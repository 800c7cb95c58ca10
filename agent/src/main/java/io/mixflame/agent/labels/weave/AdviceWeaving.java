package io.mixflame.agent.labels.weave;

import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One class file with advice woven into the methods matched, by Byte Buddy's {@code Advice}: the class and the advice
 * are described from their class files (the advice's from the profiler's loader, the rest from the woven class's), so
 * that nothing of the application's is loaded to weave it.
 */
final class AdviceWeaving {
    private static final Logger LOG = LoggerFactory.getLogger(AdviceWeaving.class);

    private AdviceWeaving() {
    }

    /**
     * Retransforms the classes loaded already whose internal names {@code woven} accepts, one at a time: a class that
     * cannot be retransformed is logged (under {@code what}) and leaves the others woven.
     */
    static void retransformLoaded(Instrumentation instrumentation, Predicate<String> woven, String what) {
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : instrumentation.getAllLoadedClasses()) {
            if (woven.test(c.getName().replace('.', '/')) && instrumentation.isModifiableClass(c)) {
                loaded.add(c);
            }
        }
        for (Class<?> c : loaded) {
            try {
                instrumentation.retransformClasses(c);
            } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
                LOG.warn("{}: {} could not be woven and is left as it is: {}", what, c.getName(), e.toString());
            }
        }
    }

    /**
     * Where the class files of {@code loader}'s classes are read; for the bootstrap loader (null) its own classes and
     * those of jars appended to its search path (where the OpenTelemetry Java agent puts its own), which only a
     * resource look-up through the system loader finds.
     */
    static ClassFileLocator locatorOf(ClassLoader loader) {
        return loader != null ? ClassFileLocator.ForClassLoader.of(loader)
                : new ClassFileLocator.Compound(ClassFileLocator.ForClassLoader.ofBootLoader(),
                        ClassFileLocator.ForClassLoader.ofSystemLoader());
    }

    /**
     * The bytes of class {@code name} ({@code classFile}, of the loader {@code target} reads) with {@code adviceClass}
     * (read through {@code advice}) woven into {@code methods}.
     */
    static byte[] weave(String name, byte[] classFile, ClassFileLocator target, ClassFileLocator advice,
                        Class<?> adviceClass, ElementMatcher<? super MethodDescription> methods) {
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, classFile), advice,
                target);
        TypePool pool = TypePool.Default.of(locator);
        TypeDescription type = pool.describe(name).resolve();
        TypeDescription adviceType = pool.describe(adviceClass.getName()).resolve();
        return new ByteBuddy()
                .with(TypeValidation.DISABLED)
                .redefine(type, locator)
                .visit(Advice.to(adviceType, locator).on(methods))
                .make()
                .getBytes();
    }
}
