package io.mixflame.symbolize;

import io.mixflame.profile.Frame;
import io.mixflame.profile.FrameType;

/**
 * One frame of a walked stack, named: a native function, a Java method (one of possibly several inlined at one
 * compiled frame), a JVM stub, or a marker.
 *
 * @param type         the kind of code
 * @param pc           the frame's pc (for inlined Java frames, the pc of the compiled frame holding them)
 * @param sp           the frame's stack pointer
 * @param name         display name: the native symbol, {@code pkg/Class.method}, the stub's name, or the marker
 * @param module       the native module's file name, or null
 * @param symbolStart  native frames: the function's address (0 without a symbol)
 * @param displacement native frames: pc minus the function's address, or the offset in the module
 * @param javaClass    Java frames: the class in internal form; otherwise null
 * @param javaMethod   Java frames: the method's name; otherwise null
 * @param signature    Java frames: the method's descriptor; otherwise null
 * @param sourceFile   Java frames: the class's source file name, or null
 * @param bci          Java frames: the bytecode index, -1 when unknown
 * @param line         Java frames: the source line, 0 when unknown
 */
public record NamedFrame(FrameType type, long pc, long sp, String name, String module, long symbolStart,
                         long displacement, String javaClass, String javaMethod, String signature, String sourceFile,
                         int bci, int line) {

    /** The frame as the profile model keeps it. */
    public Frame toProfileFrame() {
        return new Frame(name, type);
    }

    /** A marker frame. */
    public static NamedFrame marker(Frame marker) {
        return new NamedFrame(FrameType.MARKER, 0, 0, marker.name(), null, 0, 0, null, null, null, null, -1, 0);
    }
}
