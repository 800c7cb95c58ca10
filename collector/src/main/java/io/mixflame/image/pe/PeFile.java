package io.mixflame.image.pe;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A PE32+ (64-bit) image as a file holds it, or as the loader laid it out in a process's memory: DOS header, PE
 * signature, COFF header, optional header (image base, size of image, data directories) and section table, and reads
 * of its bytes by RVA. Every offset is checked against the buffer before it is read; a truncated or corrupted image
 * throws {@link PeFormatException}.
 */
public final class PeFile {
    /** COFF machine type of x86-64. */
    public static final int MACHINE_AMD64 = 0x8664;
    /** Data directory index of the export table. */
    public static final int DIRECTORY_EXPORT = 0;
    /** Data directory index of the exception table ({@code .pdata}). */
    public static final int DIRECTORY_EXCEPTION = 3;
    /** Data directory index of the debug directory (CodeView records name the image's PDB). */
    public static final int DIRECTORY_DEBUG = 6;

    private static final int DOS_MAGIC = 0x5a4d; // "MZ"
    private static final long PE_SIGNATURE = 0x4550; // "PE\0\0"
    private static final int PE32_PLUS_MAGIC = 0x20b;
    private static final int COFF_HEADER_SIZE = 20;
    private static final int SECTION_HEADER_SIZE = 40;
    private static final int DIRECTORIES_OFFSET = 112;
    private static final int MAX_DIRECTORIES = 16;

    private final ByteBuffer data;
    private final boolean loaded;
    private final int machine;
    private final long timeDateStamp;
    private final long checkSum;
    private final long imageBase;
    private final long sizeOfImage;
    private final long sizeOfHeaders;
    private final List<PeDataDirectory> directories;
    private final List<PeSection> sections;

    private PeFile(ByteBuffer bytes, boolean loaded) {
        this.data = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.loaded = loaded;
        if (fileU16(0) != DOS_MAGIC) {
            throw new PeFormatException("no MZ signature: not a PE image");
        }
        long peOffset = fileU32(0x3c);
        if (fileU32(peOffset) != PE_SIGNATURE) {
            throw new PeFormatException("no PE signature at 0x" + Long.toHexString(peOffset));
        }
        long coff = peOffset + 4;
        this.machine = fileU16(coff);
        int sectionCount = fileU16(coff + 2);
        this.timeDateStamp = fileU32(coff + 4);
        int optionalSize = fileU16(coff + 16);
        long optional = coff + COFF_HEADER_SIZE;
        if (optionalSize < DIRECTORIES_OFFSET) {
            throw new PeFormatException("optional header of " + optionalSize + " bytes is too short for PE32+");
        }
        if (fileU16(optional) != PE32_PLUS_MAGIC) {
            throw new PeFormatException("not a PE32+ image (optional header magic 0x"
                    + Integer.toHexString(fileU16(optional)) + ")");
        }
        this.imageBase = fileU64(optional + 24);
        this.sizeOfImage = fileU32(optional + 56);
        this.sizeOfHeaders = fileU32(optional + 60);
        this.checkSum = fileU32(optional + 64);
        long directoryCount = fileU32(optional + 108);
        // The count is the image's claim; only what fits in the optional header is believed.
        long fitting = Math.min(Math.min(directoryCount, MAX_DIRECTORIES), (optionalSize - DIRECTORIES_OFFSET) / 8);
        List<PeDataDirectory> dirs = new ArrayList<>();
        for (int i = 0; i < fitting; i++) {
            long at = optional + DIRECTORIES_OFFSET + 8L * i;
            dirs.add(new PeDataDirectory(fileU32(at), fileU32(at + 4)));
        }
        this.directories = Collections.unmodifiableList(dirs);
        this.sections = readSections(optional + optionalSize, sectionCount);
    }

    /** Parses an image file held in memory (a mapped file, a test's bytes): bytes 0 to the buffer's limit. */
    public static PeFile parse(ByteBuffer bytes) {
        return new PeFile(bytes, false);
    }

    /**
     * Parses an image as the loader laid it out, read from a process's memory from the image's base: each section's
     * bytes at its RVA. The buffer may stop short of the size of image (only the headers read, say): the sections
     * then hold what the buffer holds of them, and reads beyond it fail.
     */
    public static PeFile parseLoaded(ByteBuffer bytes) {
        return new PeFile(bytes, true);
    }

    private List<PeSection> readSections(long table, int count) {
        List<PeSection> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long at = table + (long) SECTION_HEADER_SIZE * i;
            checkFileRange(at, SECTION_HEADER_SIZE, "section header " + i);
            PeSection section = new PeSection(sectionName(at), fileU32(at + 12), fileU32(at + 8),
                    fileU32(at + 20), fileU32(at + 16));
            if (loaded) {
                // Loaded, a section's bytes lie at its RVA, zero fill included, as far as the buffer goes.
                long size = section.loadedSize();
                long held = Math.max(0, Math.min(size, data.limit() - section.virtualAddress()));
                section = new PeSection(section.name(), section.virtualAddress(), size, section.virtualAddress(), held);
            } else if (section.rawSize() != 0) {
                checkFileRange(section.rawOffset(), section.rawSize(), "section " + section.name());
            }
            if (section.virtualAddress() + section.loadedSize() > sizeOfImage) {
                throw new PeFormatException("section " + section.name() + " ends past the size of image");
            }
            list.add(section);
        }
        return Collections.unmodifiableList(list);
    }

    private String sectionName(long at) {
        byte[] name = new byte[8];
        int length = 0;
        while (length < 8 && data.get((int) at + length) != 0) {
            name[length] = data.get((int) at + length);
            length++;
        }
        return new String(name, 0, length, StandardCharsets.US_ASCII);
    }

    /** COFF machine type ({@link #MACHINE_AMD64} for x64). */
    public int machine() {
        return machine;
    }

    /** The build's link time, as the linker stamped it (or a hash of the build, for reproducible builds). */
    public long timeDateStamp() {
        return timeDateStamp;
    }

    /** The image's checksum field (0 where the linker left it out). */
    public long checkSum() {
        return checkSum;
    }

    /**
     * Whether two images are one build: the same link stamp, size of image and checksum. A loader that maps another
     * file than the one it names (Wine putting its builtin DLL where it found a native one) fails this.
     */
    public boolean isSameBuildAs(PeFile other) {
        return timeDateStamp == other.timeDateStamp && sizeOfImage == other.sizeOfImage && checkSum == other.checkSum;
    }

    /** The address the image prefers to be loaded at. */
    public long imageBase() {
        return imageBase;
    }

    /** Bytes of address space the loaded image occupies. */
    public long sizeOfImage() {
        return sizeOfImage;
    }

    public List<PeSection> sections() {
        return sections;
    }

    /** A data directory by index ({@link #DIRECTORY_EXPORT}, ...), {@link PeDataDirectory#ABSENT} if missing. */
    public PeDataDirectory directory(int index) {
        return index >= 0 && index < directories.size() ? directories.get(index) : PeDataDirectory.ABSENT;
    }

    /**
     * The file offset of {@code length} bytes starting at an RVA; all of them must lie in one section's raw data
     * (or in the headers).
     *
     * @throws PeFormatException if they do not
     */
    public long rvaToOffset(long rva, long length) {
        if (rva < 0 || length < 0) {
            throw new PeFormatException("negative RVA or length");
        }
        if (rva + length <= sizeOfHeaders && rva + length <= data.limit()) {
            return rva;
        }
        for (PeSection s : sections) {
            if (s.contains(rva)) {
                long inSection = rva - s.virtualAddress();
                // Zero-fill beyond the raw data is not in the file: treat it as outside.
                if (inSection + length > s.rawSize() || inSection + length > s.loadedSize()) {
                    throw new PeFormatException("RVA 0x" + Long.toHexString(rva) + "+" + length
                            + " runs past the file data of section " + s.name());
                }
                return s.rawOffset() + inSection;
            }
        }
        throw new PeFormatException("RVA 0x" + Long.toHexString(rva) + " is in no section");
    }

    /** The byte at an RVA. */
    public int u8(long rva) {
        return data.get((int) rvaToOffset(rva, 1)) & 0xff;
    }

    /** The little-endian 16-bit value at an RVA. */
    public int u16(long rva) {
        return data.getShort((int) rvaToOffset(rva, 2)) & 0xffff;
    }

    /** The little-endian 32-bit value at an RVA, unsigned. */
    public long u32(long rva) {
        return data.getInt((int) rvaToOffset(rva, 4)) & 0xffff_ffffL;
    }

    /** The NUL-terminated ASCII string at an RVA, at most {@code maxLength} bytes long. */
    public String cString(long rva, int maxLength) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i <= maxLength; i++) {
            int b = u8(rva + i);
            if (b == 0) {
                return s.toString();
            }
            s.append((char) b);
        }
        throw new PeFormatException("string at RVA 0x" + Long.toHexString(rva) + " longer than " + maxLength);
    }

    private void checkFileRange(long offset, long length, String what) {
        if (offset < 0 || length < 0 || offset + length > data.limit()) {
            throw new PeFormatException(what + " at file offset 0x" + Long.toHexString(offset) + "+" + length
                    + " lies past the end of the image (" + data.limit() + " bytes)");
        }
    }

    private int fileU16(long offset) {
        checkFileRange(offset, 2, "header field");
        return data.getShort((int) offset) & 0xffff;
    }

    private long fileU32(long offset) {
        checkFileRange(offset, 4, "header field");
        return data.getInt((int) offset) & 0xffff_ffffL;
    }

    private long fileU64(long offset) {
        checkFileRange(offset, 8, "header field");
        return data.getLong((int) offset);
    }
}
