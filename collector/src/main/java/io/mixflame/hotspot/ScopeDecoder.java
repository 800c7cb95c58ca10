package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a pc in compiled code into the Java methods it runs, innermost first: the nmethod's PcDesc for the pc
 * points into its scope records, each naming a method and bci and the record of the method it was inlined into.
 */
final class ScopeDecoder {
    private static final int MAX_DEPTH = 64;
    private static final int MAX_PCDESCS = 1 << 20;

    private final HotSpotLayout layout;
    private final VmReader reader;
    private final PcDescTable pcDescs;
    private final ScopeWindows windows;

    ScopeDecoder(HotSpotLayout layout, VmReader reader) {
        this.layout = layout;
        this.reader = reader;
        this.pcDescs = new PcDescTable(reader.memory(), (int) layout.pcDescSize, (int) layout.pcDescPcOffset,
                (int) layout.pcDescScopeOffset);
        this.windows = new ScopeWindows(reader.memory());
    }

    /**
     * The scopes at {@code pc}, innermost first; empty when the blob has no debug information for it. The PcDesc is
     * chosen by {@link PcDescSearch}: a return address's own, else the next one.
     */
    List<InlinedScope> scopes(CodeBlobInfo blob, long pc) {
        List<InlinedScope> result = new ArrayList<>(4);
        if (blob.kind() != BlobKind.NMETHOD || blob.pcsEnd() <= blob.pcsBegin()) {
            return result;
        }
        try {
            int scopeOffset = findScope(blob, (int) (pc - blob.codeBegin()));
            if (scopeOffset <= 0) {
                return result;
            }
            int offset = scopeOffset;
            for (int depth = 0; depth < MAX_DEPTH && offset > 0; depth++) {
                CompressedStream s = new CompressedStream(windows.at(blob, offset), 0, layout.unsigned5ExcludesZero);
                int sender = s.readUnsigned();
                int methodIndex = s.readUnsigned();
                int bci = s.readUnsigned() - 1;
                long method = methodIndex == 0 ? 0 : windows.method(blob, methodIndex - 1);
                result.add(new InlinedScope(method, bci));
                offset = sender;
            }
        } catch (MemoryReadException | RuntimeException e) {
            result.clear();
        }
        return result;
    }

    /** The scope offset of the PcDesc for the pc (see {@link PcDescSearch}), or 0 when there is none. */
    private int findScope(CodeBlobInfo blob, int pcOffset) throws MemoryReadException {
        long size = layout.pcDescSize;
        long count = (blob.pcsEnd() - blob.pcsBegin()) / size;
        if (count <= 0 || count > MAX_PCDESCS) {
            return 0;
        }
        int held = pcDescs.scopeOffset(blob, pcOffset);
        if (held != PcDescTable.NOT_HELD) {
            return held;
        }
        long found = PcDescSearch.indexFor(new PcDescSearch.Offsets() {
            @Override
            public long count() {
                return count;
            }

            @Override
            public int offsetAt(long index) throws MemoryReadException {
                return reader.s32(blob.pcsBegin() + index * size + layout.pcDescPcOffset);
            }
        }, pcOffset);
        if (found < 0) {
            return 0;
        }
        return reader.s32(blob.pcsBegin() + found * size + layout.pcDescScopeOffset);
    }
}
