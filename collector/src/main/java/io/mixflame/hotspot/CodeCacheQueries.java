package io.mixflame.hotspot;

import java.util.function.LongFunction;
import java.util.function.LongPredicate;

/**
 * The code cache's two questions, blob at and whether in, as the functions the stub tables and the unwinders take: a
 * class rather than two method references, each of which is a class the JVM spins in the service's start-up.
 */
public final class CodeCacheQueries implements LongFunction<CodeBlobInfo>, LongPredicate {
    private final CodeCacheIndex index;

    CodeCacheQueries(CodeCacheIndex index) {
        this.index = index;
    }

    /** The blob holding {@code pc}, or null ({@link HotSpotVm#blobAt}). */
    @Override
    public CodeBlobInfo apply(long pc) {
        return index.find(pc);
    }

    /** Whether {@code pc} is in the code cache ({@link HotSpotVm#inCodeCache}). */
    @Override
    public boolean test(long pc) {
        return index.inCodeCache(pc);
    }
}
