package io.mixflame.image.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Maps a module index file read-only and checks it before anything of it is used: magic, format version, that every
 * size and offset lies within the file, that it records the expected module's key, and its CRC32C. A file that fails
 * any of these is refused with the reason; nothing in it is trusted before.
 */
final class ModuleIndexReader {
    private ModuleIndexReader() {
    }

    /**
     * The verified index at {@code path} for the module {@code key} names.
     *
     * @param maxBytes larger files are refused unread
     * @throws IOException            when the file cannot be opened or mapped (it may not exist)
     * @throws IndexRefusedException when it is not a sound index of that module
     */
    static ModuleIndex read(Path path, ModuleIndexKey key, long maxBytes) throws IOException, IndexRefusedException {
        ByteBuffer file;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < IndexFormat.FIXED_HEADER) {
                throw new IndexRefusedException("truncated: " + size + " bytes");
            }
            if (size > maxBytes) {
                throw new IndexRefusedException(size + " bytes, above the bound of " + maxBytes);
            }
            // The mapping outlives the channel; it is what every process on the host shares.
            file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size).order(ByteOrder.LITTLE_ENDIAN);
        }
        return verify(path.getFileName().toString(), file, key);
    }

    /** Checks a whole file's bytes (little-endian, position 0 at its start); see {@link #read}. */
    static ModuleIndex verify(String name, ByteBuffer file, ModuleIndexKey key) throws IndexRefusedException {
        long size = file.capacity();
        for (int i = 0; i < IndexFormat.MAGIC.length; i++) {
            if (file.get(i) != IndexFormat.MAGIC[i]) {
                throw new IndexRefusedException("not a module index");
            }
        }
        int version = file.getInt(IndexFormat.VERSION_AT);
        if (version != IndexFormat.VERSION) {
            throw new IndexRefusedException("format version " + version + ", not " + IndexFormat.VERSION);
        }
        if (file.getLong(IndexFormat.FILE_BYTES_AT) != size) {
            throw new IndexRefusedException("truncated or extended: " + size + " bytes, "
                    + file.getLong(IndexFormat.FILE_BYTES_AT) + " recorded");
        }
        long headerBytes = Integer.toUnsignedLong(file.getInt(IndexFormat.HEADER_BYTES_AT));
        long keyBytes = Integer.toUnsignedLong(file.getInt(IndexFormat.KEY_BYTES_AT));
        long sections = Integer.toUnsignedLong(file.getInt(IndexFormat.SECTION_COUNT_AT));
        if (keyBytes > IndexFormat.MAX_KEY || sections > IndexFormat.MAX_SECTIONS
                || headerBytes != IndexFormat.FIXED_HEADER + IndexFormat.align8(keyBytes) + sections * IndexFormat.SECTION_ENTRY
                || headerBytes > size) {
            throw new IndexRefusedException("header sizes do not add up");
        }
        if (checksum(file) != file.getInt(IndexFormat.CHECKSUM_AT)) {
            throw new IndexRefusedException("checksum mismatch");
        }
        byte[] recordedKey = new byte[(int) keyBytes];
        file.get(IndexFormat.FIXED_HEADER, recordedKey);
        ModuleIndexKey recorded = ModuleIndexKey.recorded(file.getInt(IndexFormat.KEY_KIND_AT), recordedKey,
                file.getLong(IndexFormat.MODULE_SIZE_AT));
        if (!recorded.sameModule(key)) {
            throw new IndexRefusedException("index of another module");
        }
        int n = (int) sections;
        int[] kinds = new int[n];
        int[] entries = new int[n];
        long[] offsets = new long[n];
        long[] lengths = new long[n];
        int at = (int) (IndexFormat.FIXED_HEADER + IndexFormat.align8(keyBytes));
        for (int i = 0; i < n; i++, at += IndexFormat.SECTION_ENTRY) {
            kinds[i] = file.getInt(at);
            entries[i] = file.getInt(at + 4);
            offsets[i] = file.getLong(at + 8);
            lengths[i] = file.getLong(at + 16);
            if (entries[i] < 0 || offsets[i] < headerBytes || (offsets[i] & 7) != 0 || lengths[i] < 0
                    || lengths[i] > size - offsets[i]) {
                throw new IndexRefusedException("section " + i + " lies outside the file");
            }
        }
        return new ModuleIndex(name, file, kinds, entries, offsets, lengths);
    }

    /** CRC32C of the file with its checksum field taken as zero. */
    static int checksum(ByteBuffer file) {
        CRC32C crc = new CRC32C();
        crc.update(file.slice(0, IndexFormat.CHECKSUM_AT));
        crc.update(new byte[Integer.BYTES]);
        int rest = IndexFormat.CHECKSUM_AT + Integer.BYTES;
        crc.update(file.slice(rest, file.capacity() - rest));
        return (int) crc.getValue();
    }
}
