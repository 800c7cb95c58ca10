package io.mixflame.capture.labels;

import io.mixflame.profile.Frame;
import java.util.Set;

/**
 * What a label's key set by the application may be: a name a person types and a query language accepts unquoted
 * ({@code endpoint}, {@code tenant_id}, {@code http.route}; {@link Frame#isLabelKey}), other than the keys the
 * profiler gives meanings of its own: {@code thread} (pprof's label of a sample's thread) and {@code labels}
 * ({@code [labels=other]} past the bound on distinct sets, {@code [labels=unknown]} when the log moved on).
 */
public final class LabelKeys {
    /** Keys the application may not set. */
    public static final Set<String> RESERVED = Set.of("thread", "labels");

    private LabelKeys() {
    }

    /** Whether the application may set {@code key}. */
    public static boolean valid(String key) {
        return Frame.isLabelKey(key) && !RESERVED.contains(key);
    }
}
