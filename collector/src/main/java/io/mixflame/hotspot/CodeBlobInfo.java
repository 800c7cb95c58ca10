package io.mixflame.hotspot;

/**
 * What the walker and the namer need of one code blob, read in one piece.
 *
 * @param start              the blob's address
 * @param end                the first address after it
 * @param kind               what it holds
 * @param name               HotSpot's name for it ("nmethod", "Interpreter", "StubRoutines (1)", ...)
 * @param codeBegin          first instruction
 * @param codeEnd            first address after the instructions
 * @param frameSizeWords     the frame size in 8-byte words (0 for frameless code and the interpreter)
 * @param frameCompleteOffset offset from codeBegin at which the frame is set up
 * @param method             for nmethods and native wrappers: the Method*
 * @param compLevel          for nmethods: 1–3 C1, 4 C2
 * @param deoptHandler       for nmethods: where a deoptimized frame's return address is redirected
 * @param deoptMhHandler     the same for method-handle call sites
 * @param origPcOffset       for nmethods: where the original pc of a deoptimized frame is saved, from sp
 * @param pcsBegin           for nmethods: the PcDesc array
 * @param pcsEnd             its end
 * @param scopesData         the scope records the PcDescs point into
 * @param metadata           the metadata array scope records index (Method* of inlined methods)
 * @param verifiedEntry      where the frame starts being built: for nmethods their verified entry (the inline
 *                           cache check is before it), for other blobs their first instruction
 */
public record CodeBlobInfo(long start, long end, BlobKind kind, String name, long codeBegin, long codeEnd,
                           int frameSizeWords, int frameCompleteOffset, long method, int compLevel,
                           long deoptHandler, long deoptMhHandler, int origPcOffset, long pcsBegin, long pcsEnd,
                           long scopesData, long metadata, long verifiedEntry) {

    /** Whether an address is inside the blob. */
    public boolean contains(long address) {
        return address >= start && address < end;
    }

    /** Whether the frame is set up at this pc (prologue done). */
    public boolean frameComplete(long pc) {
        return pc - codeBegin >= frameCompleteOffset;
    }

    /** Whether this blob holds vtable and itable stubs ({@code VtableStubs} allocates them in such chunks). */
    public boolean isVtableChunks() {
        return kind == BlobKind.STUB && "vtable chunks".equals(name);
    }

    /**
     * Whether {@code other} is a reading of the same code: the same place, size and method (a blob the JIT put where
     * a freed one was is told apart from it).
     */
    public boolean sameCode(CodeBlobInfo other) {
        return other == this || other != null && other.start == start && other.end == end && other.method == method
                && other.codeBegin == codeBegin && other.kind == kind;
    }

    /** Whether this is Java code: an nmethod or a native wrapper. */
    public boolean isJava() {
        return kind == BlobKind.NMETHOD || kind == BlobKind.NATIVE_WRAPPER;
    }
}
