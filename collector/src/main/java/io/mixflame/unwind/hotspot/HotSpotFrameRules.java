package io.mixflame.unwind.hotspot;

import io.mixflame.hotspot.CodeBlobInfo;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.UnwindContext;
import io.mixflame.unwind.UnwindStatus;

/**
 * How HotSpot lays out its frames on one processor architecture: where an interpreted frame keeps its Method*, bcp
 * and caller, how a compiled frame or a stub is left at any pc (prologue, body, epilogue), and the frame pointer
 * chain of the call stub. {@link HotSpotUnwinder} decides which kind of frame it has from the code cache and asks
 * these rules to take the step; a port to another architecture adds an implementation in a package of its own beside
 * {@code unwind.hotspot.x64}, with a {@link HotSpotFrameRulesFactory} listed as a service, through which the chain's
 * builder ({@code unwind.chain}) picks the rules of the machine's architecture.
 */
public interface HotSpotFrameRules {

    /** Steps out of an interpreted frame, describing it as such (its Method* and bcp). */
    UnwindStatus interpreted(UnwindContext context) throws MemoryReadException;

    /** Steps out of a frame of code with a frame size: an nmethod, a native wrapper, a runtime stub. */
    UnwindStatus sized(UnwindContext context, CodeBlobInfo blob) throws MemoryReadException;

    /** Steps out of a stub without a frame size whose code starts at {@code entry} (0 when not known). */
    UnwindStatus stub(UnwindContext context, long entry) throws MemoryReadException;

    /** Steps out through the frame pointer, as from the call stub back into the C++ that called Java. */
    UnwindStatus byFramePointer(UnwindContext context) throws MemoryReadException;
}
