package io.mixflame.unwind.hotspot;

import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.hotspot.HotSpotVm;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;
import io.mixflame.unwind.hotspot.x64.X64FrameRules;

/**
 * How HotSpot lays out its frames on one processor architecture: where an interpreted frame keeps its Method*, bcp
 * and caller, how a compiled frame or a stub is left at any pc (prologue, body, epilogue), and the frame pointer
 * chain of the call stub. {@link HotSpotUnwinder} decides which kind of frame it has from the code cache and asks
 * these rules to take the step; a port to another architecture adds an implementation beside {@link X64FrameRules}
 * and names it in {@link #of}.
 */
public interface HotSpotFrameRules {

    /** The rules of the architecture this JVM runs on. */
    static HotSpotFrameRules of(HotSpotVm vm) {
        return new X64FrameRules(vm);
    }

    /** Steps out of an interpreted frame, describing it as such (its Method* and bcp). */
    UnwindStatus interpreted(UnwindContext context) throws MemoryReadException;

    /** Steps out of a frame of code with a frame size: an nmethod, a native wrapper, a runtime stub. */
    UnwindStatus sized(UnwindContext context, CodeBlobInfo blob) throws MemoryReadException;

    /** Steps out of a stub without a frame size whose code starts at {@code entry} (0 when not known). */
    UnwindStatus stub(UnwindContext context, long entry) throws MemoryReadException;

    /** Steps out through the frame pointer, as from the call stub back into the C++ that called Java. */
    UnwindStatus byFramePointer(UnwindContext context) throws MemoryReadException;
}
