package io.mixflame.image.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A 64-bit little-endian ELF file (x86-64 or aarch64): its sections, segments, build id, soname and debug link. Parsing
 * checks every offset against the file's size; a truncated or corrupted file throws {@link ElfFormatException}.
 */
public final class ElfFile {
    /** {@code e_machine} of x86-64. */
    public static final int EM_X86_64 = 62;
    /** {@code e_machine} of aarch64. */
    public static final int EM_AARCH64 = 183;
    private static final int DYNAMIC_ENTRY = 16;
    private static final long DT_NULL = 0;
    private static final long DT_SONAME = 14;
    private static final long MAX_FILE = Integer.MAX_VALUE;
    private static final int MAX_SECTIONS = 65_535;

    private final ByteBuffer data;
    private final Map<Long, ByteBuffer> slices = new HashMap<>();
    private final int type;
    private final int machine;
    private final List<ElfSection> sections;
    private final List<ElfSegment> segments;

    private ElfFile(ByteBuffer data) {
        this.data = data.order(ByteOrder.LITTLE_ENDIAN);
        ByteCursor header = new ByteCursor(data, 0, Math.min(64, data.capacity()));
        if (header.remaining() < 64) {
            throw new ElfFormatException("too short for an ELF header");
        }
        if (header.u8() != 0x7f || header.u8() != 'E' || header.u8() != 'L' || header.u8() != 'F') {
            throw new ElfFormatException("not an ELF file");
        }
        if (header.u8() != 2) {
            throw new ElfFormatException("not a 64-bit ELF file");
        }
        if (header.u8() != 1) {
            throw new ElfFormatException("not a little-endian ELF file");
        }
        header.seek(16);
        this.type = header.u16();
        this.machine = header.u16();
        header.seek(32);
        long phoff = header.u64();
        long shoff = header.u64();
        header.seek(54);
        int phentsize = header.u16();
        int phnum = header.u16();
        int shentsize = header.u16();
        int shnum = header.u16();
        int shstrndx = header.u16();
        this.segments = readSegments(phoff, phentsize, phnum);
        this.sections = readSections(shoff, shentsize, shnum, shstrndx);
    }

    /** Maps and parses a file. */
    public static ElfFile open(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > MAX_FILE) {
                throw new ElfFormatException("larger than 2 GiB");
            }
            return new ElfFile(ch.map(FileChannel.MapMode.READ_ONLY, 0, size));
        }
    }

    /** Parses bytes already in memory (the vDSO, a test's fuzzed copy). */
    public static ElfFile parse(ByteBuffer bytes) {
        return new ElfFile(bytes);
    }

    private List<ElfSegment> readSegments(long phoff, int entsize, int count) {
        if (count == 0) {
            return List.of();
        }
        if (entsize < 56) {
            throw new ElfFormatException("program header entries of " + entsize + " bytes");
        }
        List<ElfSegment> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ByteCursor c = new ByteCursor(data, phoff + (long) i * entsize, 56);
            int ptype = (int) c.u32();
            int pflags = (int) c.u32();
            long offset = c.u64();
            long vaddr = c.u64();
            c.u64();
            long filesz = c.u64();
            long memsz = c.u64();
            list.add(new ElfSegment(ptype, pflags, offset, vaddr, filesz, memsz));
        }
        return Collections.unmodifiableList(list);
    }

    private List<ElfSection> readSections(long shoff, int entsize, int count, int shstrndx) {
        if (count == 0 || shoff == 0) {
            return List.of();
        }
        if (entsize < 64) {
            throw new ElfFormatException("section header entries of " + entsize + " bytes");
        }
        if (count > MAX_SECTIONS || shstrndx >= count) {
            throw new ElfFormatException("bad section count " + count + " or name table index " + shstrndx);
        }
        long[][] raw = new long[count][];
        for (int i = 0; i < count; i++) {
            ByteCursor c = new ByteCursor(data, shoff + (long) i * entsize, 64);
            long name = c.u32();
            long stype = c.u32();
            long flags = c.u64();
            long addr = c.u64();
            long offset = c.u64();
            long size = c.u64();
            long link = c.u32();
            c.u32();
            c.u64();
            long entsz = c.u64();
            raw[i] = new long[] {name, stype, flags, addr, offset, size, link, entsz};
        }
        long[] names = raw[shstrndx];
        List<ElfSection> list = new ArrayList<>(count);
        for (long[] r : raw) {
            String name = r[0] == 0 ? "" : stringAt(names[4], names[5], r[0]);
            ElfSection s = new ElfSection(name, (int) r[1], r[2], r[3], r[4], r[5], (int) r[6], r[7]);
            if (s.hasData() && (s.offset() < 0 || s.offset() + s.size() > data.capacity() || s.size() < 0)) {
                throw new ElfFormatException("section " + name + " lies outside the file");
            }
            list.add(s);
        }
        return Collections.unmodifiableList(list);
    }

    /** A NUL-terminated string at {@code index} of the string table at {@code tableOffset}. */
    String stringAt(long tableOffset, long tableSize, long index) {
        if (index < 0 || index >= tableSize) {
            throw new ElfFormatException("string index " + index + " outside its table");
        }
        ByteCursor c = new ByteCursor(data, tableOffset + index, tableSize - index);
        return c.cstring();
    }

    /** The whole file. */
    public ByteBuffer data() {
        return data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** {@code e_type}: 2 executable, 3 shared object (or position-independent executable). */
    public int type() {
        return type;
    }

    /** {@code e_machine}. */
    public int machine() {
        return machine;
    }

    public List<ElfSection> sections() {
        return sections;
    }

    public List<ElfSegment> segments() {
        return segments;
    }

    /** The first section with this name. */
    public Optional<ElfSection> section(String name) {
        for (ElfSection s : sections) {
            if (s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The section at an index of the section table. */
    public ElfSection section(int index) {
        if (index < 0 || index >= sections.size()) {
            throw new ElfFormatException("no section " + index);
        }
        return sections.get(index);
    }

    /** A cursor over a section's bytes. */
    public ByteCursor cursor(ElfSection section) {
        if (!section.hasData()) {
            throw new ElfFormatException("section " + section.name() + " has no data in the file");
        }
        return new ByteCursor(data, section.offset(), section.size());
    }

    /**
     * A section's bytes as a buffer of their own (position 0 is the section's first byte), the same buffer for every
     * call, so that what keeps a reference (symbol names) shares it.
     */
    public synchronized ByteBuffer sectionBytes(ElfSection section) {
        if (!section.hasData() || section.offset() + section.size() > data.limit()) {
            throw new ElfFormatException("section " + section.name() + " has no data in the file");
        }
        ByteBuffer slice = slices.get(section.offset());
        if (slice == null) {
            slice = data.slice((int) section.offset(), (int) section.size()).order(ByteOrder.LITTLE_ENDIAN);
            slices.put(section.offset(), slice);
        }
        return slice;
    }

    /**
     * The first section with this name that has bytes in the file. (Not {@code section(name).filter(...)}: these
     * look-ups run in the service's start-up, where each lambda or method reference is a class the JVM spins.)
     */
    public Optional<ElfSection> sectionWithData(String name) {
        for (ElfSection s : sections) {
            if (s.name().equals(name)) {
                return s.hasData() ? Optional.of(s) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The GNU build id, from the {@code .note.gnu.build-id} section. */
    public Optional<byte[]> buildId() {
        Optional<ElfSection> note = section(".note.gnu.build-id");
        if (note.isEmpty() || !note.get().hasData()) {
            return Optional.empty();
        }
        ByteCursor c = cursor(note.get());
        while (c.remaining() >= 12) {
            long nameSize = c.u32();
            long descSize = c.u32();
            long noteType = c.u32();
            if (nameSize > c.remaining()) {
                break;
            }
            byte[] name = c.bytes((int) nameSize);
            c.skip(Math.min(c.remaining(), align4(nameSize) - nameSize));
            if (descSize > c.remaining()) {
                break;
            }
            byte[] desc = c.bytes((int) descSize);
            c.skip(Math.min(c.remaining(), align4(descSize) - descSize));
            if (noteType == 3 && nameSize == 4 && name[0] == 'G' && name[1] == 'N' && name[2] == 'U') {
                return Optional.of(desc);
            }
        }
        return Optional.empty();
    }

    /**
     * The name the shared object gives itself ({@code DT_SONAME} of its dynamic section, in the string table the
     * section links to), or empty when it has none.
     */
    public Optional<String> soname() {
        for (ElfSection dynamic : sections) {
            if (dynamic.type() != ElfSection.SHT_DYNAMIC || !dynamic.hasData()) {
                continue;
            }
            ElfSection strings = section(dynamic.link());
            if (!strings.hasData()) {
                return Optional.empty();
            }
            ByteCursor c = cursor(dynamic);
            while (c.remaining() >= DYNAMIC_ENTRY) {
                long tag = c.s64();
                long value = c.u64();
                if (tag == DT_NULL) {
                    break;
                }
                if (tag == DT_SONAME) {
                    return Optional.of(stringAt(strings.offset(), strings.size(), value));
                }
            }
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** The file name in {@code .gnu_debuglink}. */
    public Optional<String> debugLink() {
        Optional<ElfSection> link = section(".gnu_debuglink");
        if (link.isEmpty() || !link.get().hasData()) {
            return Optional.empty();
        }
        return Optional.of(cursor(link.get()).cstring());
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }
}
