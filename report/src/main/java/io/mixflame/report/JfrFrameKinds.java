package io.mixflame.report;

import io.mixflame.profile.FrameType;
import java.util.List;

/**
 * The frame types of a JFR stack trace ({@code jdk.types.FrameType}), both ways: the JDK's names
 * ({@code Interpreted}, {@code JIT compiled}, {@code Inlined}, {@code Native}) and async-profiler's for what the
 * JDK has none of ({@code C++}, {@code Kernel}, {@code C1 compiled}). Each is keyed by its index in {@link #ALL},
 * as the JDK and async-profiler key them: async-profiler's converter takes the key for the type, others the name.
 */
final class JfrFrameKinds {

    static final String INTERPRETED = "Interpreted";
    static final String JIT_COMPILED = "JIT compiled";
    static final String INLINED = "Inlined";
    static final String NATIVE = "Native";
    static final String CPP = "C++";
    static final String KERNEL = "Kernel";
    static final String C1_COMPILED = "C1 compiled";

    /** Every frame type the writer declares, in the order of their keys. */
    static final List<String> ALL = List.of(INTERPRETED, JIT_COMPILED, INLINED, NATIVE, CPP, KERNEL, C1_COMPILED);

    private JfrFrameKinds() {
    }

    /**
     * The JFR frame type a frame of this kind is written with. Stubs, markers and threads below the root are code or notes without a method: written as native, as
     * async-profiler writes its own. So is a label out of its place (labels at the root end are written as the
     * event's labels, not as frames).
     */
    static String toJfr(FrameType type) {
        return switch (type) {
            case INTERPRETED -> INTERPRETED;
            case JIT_COMPILED -> JIT_COMPILED;
            case C1_COMPILED -> C1_COMPILED;
            case INLINED -> INLINED;
            case KERNEL -> KERNEL;
            case NATIVE, STUB, THREAD, MARKER, CLASS, LABEL -> NATIVE;
        };
    }

    /** The key of the JFR frame type a frame of this kind is written with. */
    static int key(FrameType type) {
        return ALL.indexOf(toJfr(type));
    }

    /**
     * The kind of a frame read from JFR, for a Java method (one of a real class); frames of native code are told
     * apart by their pseudo-class before this is asked. Unknown names (a later JDK's) are taken as JIT compiled,
     * the kind a sampled Java frame most often is; so is a frame without a type.
     */
    static FrameType fromJfr(String jfrType) {
        if (jfrType == null) {
            return FrameType.JIT_COMPILED;
        }
        return switch (jfrType) {
            case INTERPRETED -> FrameType.INTERPRETED;
            case INLINED -> FrameType.INLINED;
            case C1_COMPILED -> FrameType.C1_COMPILED;
            case KERNEL -> FrameType.KERNEL;
            case NATIVE, CPP -> FrameType.NATIVE;
            default -> FrameType.JIT_COMPILED;
        };
    }
}
