package io.mixflame.testsupport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an {@code .eh_frame} section (CIEs and FDEs, as GCC lays them out: version 1, 8-byte aligned entries,
 * a zero terminator) for a section loaded at a given address, and its {@code .eh_frame_hdr} binary-search index.
 */
public final class EhFrameBuilder {
    /** DW_EH_PE_pcrel | DW_EH_PE_sdata4: what GCC uses for FDE addresses. */
    public static final int PCREL_SDATA4 = 0x1b;
    /** DW_EH_PE_absptr: 8-byte absolute addresses. */
    public static final int ABSPTR = 0x00;

    private record CieFormat(int pointerEncoding, boolean augmented) {
    }

    private record Fde(long start, int offset) {
    }

    private final long sectionAddress;
    private final LittleEndianWriter out = new LittleEndianWriter();
    private final Map<Integer, CieFormat> cies = new HashMap<>();
    private final List<Fde> fdes = new ArrayList<>();

    /** A section that will be loaded at {@code sectionAddress} (PC-relative pointers depend on it). */
    public EhFrameBuilder(long sectionAddress) {
        this.sectionAddress = sectionAddress;
    }

    /**
     * Adds a CIE and returns its offset in the section.
     *
     * @param augmentation    "" (addresses are then 8-byte absolute), "zR", or "zRS" for a signal frame
     * @param pointerEncoding the FDE address encoding given by "R"
     */
    public int cie(String augmentation, int pointerEncoding, long codeAlign, long dataAlign, int returnRegister,
                   CfiInstructions initial) {
        int start = out.size();
        out.u32(0);
        out.u32(0);
        out.u8(1).cstring(augmentation).uleb(codeAlign).sleb(dataAlign).u8(returnRegister);
        boolean augmented = augmentation.startsWith("z");
        if (augmented) {
            out.uleb(1).u8(pointerEncoding);
        }
        out.bytes(initial.bytes());
        finish(start);
        cies.put(start, new CieFormat(augmented ? pointerEncoding : ABSPTR, augmented));
        return start;
    }

    /** The CIE GCC emits on x86-64: CFA = rsp + 8, return address at CFA - 8, code align 1, data align -8. */
    public int standardCie() {
        return cie("zR", PCREL_SDATA4, 1, -8, 16, new CfiInstructions().defCfa(7, 8).offset(16, 1));
    }

    /** Adds an FDE of {@code [start, start + length)} under the CIE at {@code cieOffset}; returns its offset. */
    public int fde(int cieOffset, long start, long length, CfiInstructions instructions) {
        CieFormat format = cies.get(cieOffset);
        int fdeStart = out.size();
        out.u32(0);
        out.u32(out.size() - cieOffset);
        pointer(format.pointerEncoding(), start, true);
        pointer(format.pointerEncoding(), length, false);
        if (format.augmented()) {
            out.uleb(0);
        }
        out.bytes(instructions.bytes());
        finish(fdeStart);
        fdes.add(new Fde(start, fdeStart));
        return fdeStart;
    }

    /** The section's bytes, with the zero terminator. */
    public byte[] bytes() {
        LittleEndianWriter copy = new LittleEndianWriter().bytes(out.toByteArray());
        return copy.u32(0).toByteArray();
    }

    /** The {@code .eh_frame_hdr} of the FDEs written so far, for a header loaded at {@code hdrAddress}. */
    public byte[] index(long hdrAddress) {
        List<Fde> sorted = new ArrayList<>(fdes);
        sorted.sort(Comparator.comparingLong(Fde::start));
        LittleEndianWriter hdr = new LittleEndianWriter();
        hdr.u8(1).u8(PCREL_SDATA4).u8(0x03).u8(0x3b);
        hdr.u32(sectionAddress - (hdrAddress + 4));
        hdr.u32(sorted.size());
        for (Fde f : sorted) {
            hdr.u32(f.start() - hdrAddress).u32(sectionAddress + f.offset() - hdrAddress);
        }
        return hdr.toByteArray();
    }

    private void pointer(int encoding, long value, boolean applyRelative) {
        long v = applyRelative && (encoding & 0x70) == 0x10 ? value - (sectionAddress + out.size()) : value;
        switch (encoding & 0x0f) {
            case 0x00 -> out.u64(v);
            case 0x03, 0x0b -> out.u32(v);
            default -> throw new IllegalArgumentException("encoding 0x" + Integer.toHexString(encoding));
        }
    }

    /** Pads the entry with DW_CFA_nop to 8 bytes and writes its length. */
    private void finish(int start) {
        while ((out.size() - start) % 8 != 0) {
            out.u8(0);
        }
        out.patchU32(start, out.size() - start - 4);
    }
}
