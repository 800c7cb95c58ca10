package io.mixflame.report;

import io.mixflame.profile.Frame;
import java.util.Objects;

/**
 * A function as pprof and OpenTelemetry's profiles write it: what the frames of one method (or native function)
 * share, whatever line each was sampled at. Its system name carries mixflame's kind suffix
 * ({@link CollapsedFrames#suffix}), so that the kind of each Java frame survives; a Java function has its source file
 * and first line when the profile knows them.
 *
 * <p>A function is its name, system name and file: the start line follows from those, as a frame's offset follows
 * from its name and module ({@link Frame#equals}), so it is left out of equality.
 *
 * @param name       the frame's name
 * @param systemName the name with the frame's kind suffix
 * @param file       a Java frame's source file, or null
 * @param startLine  a Java method's first line, or 0 when unknown
 */
record ProfileFunction(String name, String systemName, String file, long startLine) {

    /** The function a frame is code of. */
    static ProfileFunction of(Frame frame) {
        boolean sourced = frame.type().isJava() && frame.module() != null;
        return new ProfileFunction(frame.name(), frame.name() + CollapsedFrames.suffix(frame.type()),
                sourced ? frame.module() : null, sourced ? Math.max(0, frame.offset()) : 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProfileFunction f && name.equals(f.name) && systemName.equals(f.systemName)
                && Objects.equals(file, f.file);
    }

    @Override
    public int hashCode() {
        return (name.hashCode() * 31 + systemName.hashCode()) * 31 + Objects.hashCode(file);
    }
}
