package io.mixflame.testsupport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Lays out a minimal PE32+ x64 image for tests: headers, sections (each at the next 0x1000-aligned RVA, file
 * data 0x200-aligned), and optionally an export directory, a CodeView debug record and an exception directory ({@code .pdata}) whose unwind
 * infos go in an {@code .xdata} section. Headers can be patched afterwards to make malformed images.
 */
public final class PeImageBuilder {
    public static final int PE_OFFSET = 0x40;
    public static final int OPTIONAL_HEADER_OFFSET = PE_OFFSET + 4 + 20;
    public static final int OPTIONAL_HEADER_SIZE = 112 + 16 * 8;
    public static final int SECTION_TABLE_OFFSET = OPTIONAL_HEADER_OFFSET + OPTIONAL_HEADER_SIZE;
    /** Room for an unwind info of the largest size, so tests can know each one's RVA in advance. */
    public static final int XDATA_STRIDE = 0x400;
    private static final int SECTION_ALIGNMENT = 0x1000;
    private static final int FILE_ALIGNMENT = 0x200;

    /** An export: a name and either an RVA or, if {@code forwarder} is set, a forwarder string. */
    public record Export(String name, long rva, String forwarder) {
        public static Export of(String name, long rva) {
            return new Export(name, rva, null);
        }

        public static Export forwarded(String name, String target) {
            return new Export(name, 0, target);
        }
    }

    /** A RUNTIME_FUNCTION to lay out, with the unwind info it points at. */
    public record Function(long begin, long end, byte[] unwindInfo) {
    }

    private record Section(String name, long rva, byte[] bytes) {
    }

    private long imageBase = 0x1_8000_0000L;
    private long timeDateStamp;
    private final List<Section> sections = new ArrayList<>();
    private final long[][] directories = new long[16][2];

    public PeImageBuilder imageBase(long base) {
        imageBase = base;
        return this;
    }

    /** The COFF header's link stamp (0 unless set). */
    public PeImageBuilder timeDateStamp(long stamp) {
        timeDateStamp = stamp;
        return this;
    }

    /** The RVA the next section added will get. */
    public long nextRva() {
        if (sections.isEmpty()) {
            return SECTION_ALIGNMENT;
        }
        Section last = sections.get(sections.size() - 1);
        return last.rva() + align(Math.max(1, last.bytes().length), SECTION_ALIGNMENT);
    }

    /** Adds a section and returns its RVA. */
    public long section(String name, byte[] bytes) {
        long rva = nextRva();
        sections.add(new Section(name, rva, bytes));
        return rva;
    }

    public PeImageBuilder directory(int index, long rva, long size) {
        directories[index][0] = rva;
        directories[index][1] = size;
        return this;
    }

    /** Adds an {@code .edata} section holding an export directory for {@code exports}. */
    public PeImageBuilder exports(String dllName, List<Export> exports) {
        long base = nextRva();
        int n = exports.size();
        long functions = base + 40;
        long names = functions + 4L * n;
        long ordinals = names + 4L * n;
        long strings = ordinals + 2L * n;
        LittleEndianWriter text = new LittleEndianWriter();
        long[] nameRvas = new long[n];
        long[] forwarderRvas = new long[n];
        long dllNameRva = strings + text.size();
        text.cstring(dllName);
        for (int i = 0; i < n; i++) {
            nameRvas[i] = strings + text.size();
            text.cstring(exports.get(i).name());
            if (exports.get(i).forwarder() != null) {
                forwarderRvas[i] = strings + text.size();
                text.cstring(exports.get(i).forwarder());
            }
        }
        LittleEndianWriter w = new LittleEndianWriter();
        w.u32(0).u32(0).u16(0).u16(0).u32(dllNameRva).u32(1).u32(n).u32(n).u32(functions).u32(names).u32(ordinals);
        for (int i = 0; i < n; i++) {
            w.u32(exports.get(i).forwarder() != null ? forwarderRvas[i] : exports.get(i).rva());
        }
        for (int i = 0; i < n; i++) {
            w.u32(nameRvas[i]);
        }
        for (int i = 0; i < n; i++) {
            w.u16(i);
        }
        w.bytes(text.toByteArray());
        byte[] bytes = w.toByteArray();
        section(".edata", bytes);
        return directory(0, base, bytes.length);
    }

    /**
     * Adds an {@code .rdata} section holding a debug directory of one CodeView entry: an {@code RSDS} record with
     * this GUID (16 bytes as stored), age and PDB path.
     */
    public PeImageBuilder codeView(byte[] guid, long age, String pdb) {
        long base = nextRva();
        LittleEndianWriter w = new LittleEndianWriter();
        LittleEndianWriter record = new LittleEndianWriter().u32(0x53445352L).bytes(guid).u32(age).cstring(pdb);
        int recordSize = record.toByteArray().length;
        w.u32(0).u32(0).u16(0).u16(0).u32(2).u32(recordSize).u32(base + 28).u32(0);
        w.bytes(record.toByteArray());
        section(".rdata", w.toByteArray());
        return directory(6, base, 28);
    }

    /** The RVA the k-th unwind info of the next {@link #unwindTables} call will get. */
    public long xdataRva(int k) {
        return nextRva() + (long) XDATA_STRIDE * k;
    }

    /** Adds {@code .xdata} (the infos, one per {@link #XDATA_STRIDE}) and {@code .pdata} sections. */
    public PeImageBuilder unwindTables(List<Function> functions) {
        byte[] xdata = new byte[XDATA_STRIDE * Math.max(1, functions.size())];
        for (int k = 0; k < functions.size(); k++) {
            byte[] info = functions.get(k).unwindInfo();
            System.arraycopy(info, 0, xdata, XDATA_STRIDE * k, info.length);
        }
        long xdataRva = section(".xdata", xdata);
        LittleEndianWriter pdata = new LittleEndianWriter();
        for (int k = 0; k < functions.size(); k++) {
            Function f = functions.get(k);
            pdata.u32(f.begin()).u32(f.end()).u32(xdataRva + (long) XDATA_STRIDE * k);
        }
        byte[] bytes = pdata.toByteArray();
        long pdataRva = section(".pdata", bytes);
        return directory(3, pdataRva, bytes.length);
    }

    public byte[] build() {
        long headersSize = align(SECTION_TABLE_OFFSET + 40L * sections.size(), FILE_ALIGNMENT);
        long sizeOfImage = nextRva();
        LittleEndianWriter w = new LittleEndianWriter();
        w.u16(0x5a4d);
        while (w.size() < 0x3c) {
            w.u8(0);
        }
        w.u32(PE_OFFSET);
        w.u32(0x4550);
        w.u16(0x8664).u16(sections.size()).u32(timeDateStamp).u32(0).u32(0).u16(OPTIONAL_HEADER_SIZE).u16(0x2022);
        int optional = w.size();
        w.u16(0x20b).u8(14).u8(0).u32(0).u32(0).u32(0).u32(0).u32(0x1000);
        w.u64(imageBase).u32(SECTION_ALIGNMENT).u32(FILE_ALIGNMENT);
        w.u16(6).u16(0).u16(0).u16(0).u16(6).u16(0).u32(0);
        w.u32(sizeOfImage).u32(headersSize).u32(0).u16(3).u16(0x160);
        w.u64(0x100000).u64(0x1000).u64(0x100000).u64(0x1000).u32(0).u32(16);
        if (w.size() - optional != 112) {
            throw new IllegalStateException("optional header layout");
        }
        for (long[] d : directories) {
            w.u32(d[0]).u32(d[1]);
        }
        long raw = headersSize;
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            byte[] name = s.name().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (int j = 0; j < 8; j++) {
                w.u8(j < name.length ? name[j] : 0);
            }
            long rawSize = align(s.bytes().length, FILE_ALIGNMENT);
            w.u32(s.bytes().length).u32(s.rva()).u32(rawSize).u32(raw)
                    .u32(0).u32(0).u16(0).u16(0).u32(0x40000040);
            raw += rawSize;
        }
        w.align(FILE_ALIGNMENT);
        for (Section s : sections) {
            w.bytes(s.bytes()).align(FILE_ALIGNMENT);
        }
        return w.toByteArray();
    }

    public ByteBuffer buildBuffer() {
        return ByteBuffer.wrap(build());
    }

    /** The image as a loader lays it out: the headers at 0, each section at its RVA, size of image bytes in all. */
    public byte[] buildLoaded() {
        byte[] file = build();
        byte[] loaded = new byte[(int) nextRva()];
        int headers = (int) align(SECTION_TABLE_OFFSET + 40L * sections.size(), FILE_ALIGNMENT);
        System.arraycopy(file, 0, loaded, 0, headers);
        for (Section s : sections) {
            System.arraycopy(s.bytes(), 0, loaded, (int) s.rva(), s.bytes().length);
        }
        return loaded;
    }

    private static long align(long value, long alignment) {
        return (value + alignment - 1) / alignment * alignment;
    }
}
