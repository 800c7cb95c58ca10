package io.mixflame.image.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Writes one module index file so that no reader ever sees part of it: into a temporary file of its own in the same
 * directory, then renamed over the final name in one atomic step. Two processes writing the same module's index at
 * once each rename a whole file; the last rename wins and both files were sound. Writes go through one small direct
 * buffer: a table of a million symbols is never copied onto the Java heap.
 */
final class ModuleIndexWriter {
    /** The buffer writes go through; the header (fixed part, key, section table) always fits. */
    private static final int CHUNK = 64 * 1024;
    /** Temporary files end so; the directory's bound removes those a dead process left. */
    static final String TEMPORARY = ".tmp";
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private ModuleIndexWriter() {
    }

    /** The bytes the file of these sections will have. */
    static long fileBytes(ModuleIndexKey key, List<IndexSection> sections) {
        long at = headerBytes(key, sections);
        for (IndexSection s : sections) {
            at = IndexFormat.align8(at + (long) s.entries() * s.entryBytes());
        }
        return at;
    }

    private static long headerBytes(ModuleIndexKey key, List<IndexSection> sections) {
        return IndexFormat.FIXED_HEADER + IndexFormat.align8(key.bytes().length)
                + (long) sections.size() * IndexFormat.SECTION_ENTRY;
    }

    /**
     * Writes the index of {@code key}'s module into {@code directory}, replacing any file of that name.
     *
     * @throws IOException when the directory cannot be written; no file is left behind then
     */
    static void write(Path directory, ModuleIndexKey key, List<IndexSection> sections) throws IOException {
        Path target = directory.resolve(key.fileName());
        // The clock and a sequence rather than the pid, which this package need not know: a name another process
        // happens to hold fails CREATE_NEW, and the index is only not written this time.
        Path temporary = directory.resolve(key.fileName() + "." + Long.toHexString(System.nanoTime()) + "."
                + SEQUENCE.incrementAndGet() + TEMPORARY);
        boolean moved = false;
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                writeContents(channel, key, sections);
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // Never a plain copy: a reader could map it half written.
                throw new IOException("the directory cannot rename atomically", e);
            }
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    private static void writeContents(FileChannel channel, ModuleIndexKey key, List<IndexSection> sections)
            throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C crc = new CRC32C();
        long fileBytes = fileBytes(key, sections);
        chunk.put(IndexFormat.MAGIC).putInt(IndexFormat.VERSION).putInt((int) headerBytes(key, sections))
                .putInt(0).putInt(sections.size()).putLong(fileBytes).putLong(key.moduleSize())
                .putInt(key.kind()).putInt(key.bytes().length).putLong(0).putLong(0);
        chunk.put(key.bytes());
        pad(channel, chunk);
        long at = headerBytes(key, sections);
        for (IndexSection s : sections) {
            long bytes = (long) s.entries() * s.entryBytes();
            chunk.putInt(s.kind()).putInt(s.entries()).putLong(at).putLong(bytes);
            at = IndexFormat.align8(at + bytes);
        }
        for (IndexSection s : sections) {
            if (s.entryBytes() <= 0 || s.entryBytes() > CHUNK) {
                throw new IOException("entries of " + s.entryBytes() + " bytes");
            }
            int perChunk = Math.max(1, CHUNK / s.entryBytes());
            for (int first = 0; first < s.entries(); first += perChunk) {
                int count = Math.min(perChunk, s.entries() - first);
                if (chunk.remaining() < count * s.entryBytes()) {
                    flush(channel, chunk, crc);
                }
                s.put(first, count, chunk);
            }
            if (chunk.remaining() < Long.BYTES) {
                flush(channel, chunk, crc);
            }
            pad(channel, chunk);
        }
        flush(channel, chunk, crc);
        if (channel.position() != fileBytes) {
            throw new IOException("wrote " + channel.position() + " bytes, not " + fileBytes);
        }
        chunk.putInt((int) crc.getValue()).flip();
        while (chunk.hasRemaining()) {
            channel.write(chunk, IndexFormat.CHECKSUM_AT + chunk.position());
        }
    }

    /** Zeroes up to the file's next multiple of 8 (the chunk always has room for 7 bytes when this is called). */
    private static void pad(FileChannel channel, ByteBuffer chunk) throws IOException {
        while (((channel.position() + chunk.position()) & 7) != 0) {
            chunk.put((byte) 0);
        }
    }

    private static void flush(FileChannel channel, ByteBuffer chunk, CRC32C crc) throws IOException {
        chunk.flip();
        crc.update(chunk.duplicate());
        while (chunk.hasRemaining()) {
            channel.write(chunk);
        }
        chunk.clear();
    }
}
