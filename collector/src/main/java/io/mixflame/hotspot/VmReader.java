package io.mixflame.hotspot;

import io.mixflame.process.MemoryReadException;
import io.mixflame.process.MemoryWords;
import io.mixflame.process.ProcessMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Typed reads of a JVM's memory (little-endian, through {@link ProcessMemory}): the widths HotSpot's fields come
 * in, C strings, and whole structures read at once into a reused buffer.
 */
public final class VmReader implements MemoryWords {
    private static final int MAX_STRING = 1024;
    private static final int FIRST_PIECE = 64;

    private final ProcessMemory memory;
    private final byte[] scratch = new byte[4096];
    private final ByteBuffer view = ByteBuffer.wrap(scratch).order(ByteOrder.LITTLE_ENDIAN);

    public VmReader(ProcessMemory memory) {
        this.memory = memory;
    }

    /** The memory read. */
    public ProcessMemory memory() {
        return memory;
    }

    @Override
    public long readLong(long address) throws MemoryReadException {
        return memory.readLong(address);
    }

    public int s32(long address) throws MemoryReadException {
        return memory.readInt(address);
    }

    public int u16(long address) throws MemoryReadException {
        return memory.readInt(address) & 0xffff;
    }

    public int u8(long address) throws MemoryReadException {
        return memory.readInt(address) & 0xff;
    }

    /**
     * An unsigned integer field of {@code width} bytes (1, 2, 4 or 8), as HotSpot's fields change width between
     * releases; 2-byte and 1-byte fields are sign-extended when {@code signed}.
     */
    public long field(long address, int width, boolean signed) throws MemoryReadException {
        return switch (width) {
            case 8 -> readLong(address);
            case 4 -> signed ? s32(address) : s32(address) & 0xffffffffL;
            case 2 -> signed ? (short) u16(address) : u16(address);
            case 1 -> signed ? (byte) u8(address) : u8(address);
            default -> throw new IllegalArgumentException("width " + width);
        };
    }

    /**
     * Reads {@code length} bytes into the reused buffer and returns a view of them, valid only until the next read
     * through this reader.
     */
    public ByteBuffer block(long address, int length) throws MemoryReadException {
        if (length > scratch.length || !memory.readFully(address, scratch, 0, length)) {
            throw new MemoryReadException(address);
        }
        return view.clear().limit(length);
    }

    /**
     * A NUL-terminated string of at most {@value #MAX_STRING} bytes, read a short piece at a time: HotSpot's table
     * names are short, and reading the most a name can be for each of thousands made attaching slow.
     */
    public String cString(long address) throws MemoryReadException {
        int have = 0;
        for (int want = FIRST_PIECE; have < MAX_STRING; want = Math.min(MAX_STRING, want * 4)) {
            int got = memory.read(address + have, scratch, have, want - have);
            if (got <= 0) {
                break;
            }
            for (int i = have; i < have + got; i++) {
                if (scratch[i] == 0) {
                    return new String(scratch, 0, i, StandardCharsets.ISO_8859_1);
                }
            }
            have += got;
            if (have < want) {
                break;
            }
        }
        throw new MemoryReadException(address);
    }

    /**
     * {@code length} bytes as a string of modified UTF-8 (HotSpot's Symbol encoding).
     *
     * @throws MemoryReadException when the bytes cannot be read or are not a well-formed name (see {@link ModifiedUtf8})
     */
    public String utf8(long address, int length) throws MemoryReadException {
        byte[] bytes = new byte[length];
        if (!memory.readFully(address, bytes, 0, length)) {
            throw new MemoryReadException(address);
        }
        String text = ModifiedUtf8.decode(bytes);
        if (text == null) {
            throw new MemoryReadException(address);
        }
        return text;
    }
}
