package io.mixflame.image.pe;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes UNWIND_INFO structures (versions 1 and 2) from an image, following chained info to a bounded depth.
 * Anything malformed (unknown version or operation, codes whose slots run past the count, a chain too deep or
 * circular, data outside the image) throws {@link PeFormatException}.
 */
public final class UnwindInfoReader {
    /** Windows' own bound on chained entries; a cycle in corrupted data ends here too. */
    public static final int MAX_CHAIN_DEPTH = 32;
    private static final int HEADER_SIZE = 4;
    private static final int RUNTIME_FUNCTION_SIZE = 12;

    private final PeFile file;

    public UnwindInfoReader(PeFile file) {
        this.file = file;
    }

    /** Decodes the unwind info at an RVA, with its chain. */
    public UnwindInfo read(long rva) {
        return read(rva, 0);
    }

    private UnwindInfo read(long rva, int depth) {
        if (depth > MAX_CHAIN_DEPTH) {
            throw new PeFormatException("unwind info chained deeper than " + MAX_CHAIN_DEPTH);
        }
        file.rvaToOffset(rva, HEADER_SIZE);
        int versionAndFlags = file.u8(rva);
        int version = versionAndFlags & 7;
        int flags = versionAndFlags >>> 3;
        if (version != 1 && version != 2) {
            throw new PeFormatException("unwind info at RVA 0x" + Long.toHexString(rva) + " has version " + version);
        }
        int prologSize = file.u8(rva + 1);
        int slotCount = file.u8(rva + 2);
        int frame = file.u8(rva + 3);
        long slots = rva + HEADER_SIZE;
        file.rvaToOffset(slots, 2L * slotCount);
        List<UnwindCode> codes = new ArrayList<>();
        int i = 0;
        while (i < slotCount) {
            int offset = file.u8(slots + 2L * i);
            int opAndInfo = file.u8(slots + 2L * i + 1);
            int op = opAndInfo & 0xf;
            int info = opAndInfo >>> 4;
            int used = slotsUsed(op, info);
            if (i + used > slotCount) {
                throw new PeFormatException("unwind code " + i + " (op " + op + ") needs " + used
                        + " slots, only " + (slotCount - i) + " left");
            }
            codes.add(new UnwindCode(offset, op, info, operand(op, info, slots + 2L * i)));
            i += used;
        }
        RuntimeFunction chainedEntry = null;
        UnwindInfo chained = null;
        if ((flags & UnwindInfo.FLAG_CHAININFO) != 0) {
            // The chained entry follows the code array, padded to an even number of slots.
            long at = slots + 2L * (slotCount + (slotCount & 1));
            file.rvaToOffset(at, RUNTIME_FUNCTION_SIZE);
            chainedEntry = new RuntimeFunction(file.u32(at), file.u32(at + 4), file.u32(at + 8));
            chained = read(chainedEntry.unwindInfo(), depth + 1);
        }
        return new UnwindInfo(version, flags, prologSize, frame & 0xf, frame >>> 4, List.copyOf(codes),
                chainedEntry, chained);
    }

    private static int slotsUsed(int op, int info) {
        return switch (op) {
            case UnwindCode.PUSH_NONVOL, UnwindCode.ALLOC_SMALL, UnwindCode.SET_FPREG,
                    UnwindCode.PUSH_MACHFRAME -> 1;
            case UnwindCode.ALLOC_LARGE -> switch (info) {
                case 0 -> 2;
                case 1 -> 3;
                default -> throw new PeFormatException("UWOP_ALLOC_LARGE with op info " + info);
            };
            case UnwindCode.SAVE_NONVOL, UnwindCode.EPILOG, UnwindCode.SAVE_XMM128 -> 2;
            case UnwindCode.SAVE_NONVOL_FAR, UnwindCode.SPARE, UnwindCode.SAVE_XMM128_FAR -> 3;
            default -> throw new PeFormatException("unknown unwind operation " + op);
        };
    }

    private long operand(int op, int info, long code) {
        return switch (op) {
            case UnwindCode.ALLOC_SMALL -> 8L * info + 8;
            // The 16-bit form counts quadwords, the 32-bit form bytes.
            case UnwindCode.ALLOC_LARGE -> info == 0 ? 8L * file.u16(code + 2) : file.u32(code + 2);
            case UnwindCode.SAVE_NONVOL -> 8L * file.u16(code + 2);
            case UnwindCode.SAVE_XMM128 -> 16L * file.u16(code + 2);
            case UnwindCode.SAVE_NONVOL_FAR, UnwindCode.SAVE_XMM128_FAR -> file.u32(code + 2);
            case UnwindCode.EPILOG -> file.u16(code + 2);
            default -> 0;
        };
    }
}
