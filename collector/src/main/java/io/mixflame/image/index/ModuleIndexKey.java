package io.mixflame.image.index;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What a module index belongs to: the module's GNU build id where it has one (the same library under another path,
 * in another container, shares the index), else its path, size and modification time. The module's size is part of
 * both: a stripped copy keeps the build id of the file it was stripped from but not its symbols. The key names the
 * index file and is recorded in it, so that a file of another module under the same name is refused.
 */
public final class ModuleIndexKey {
    /** Keyed by the GNU build id. */
    static final int BUILD_ID = 1;
    /** Keyed by path, size and modification time. */
    static final int FILE_STAT = 2;
    /** The running kernel's symbols, keyed by what tells one boot and set of loaded modules from another. */
    static final int KERNEL = 3;
    /** Longer build ids are not seen in practice; a longer one would only make a long file name. */
    private static final int MAX_BUILD_ID = 64;
    private static final int MAX_PATH = 4096;
    /** The extension of index files, by which the directory's bound finds them. */
    static final String EXTENSION = ".mfidx";

    private final int kind;
    private final byte[] bytes;
    private final long moduleSize;
    private final String fileName;

    private ModuleIndexKey(int kind, byte[] bytes, long moduleSize, String fileName) {
        this.kind = kind;
        this.bytes = bytes;
        this.moduleSize = moduleSize;
        this.fileName = fileName;
    }

    /**
     * The key of a module: by {@code buildId} when there is one, else by the file at {@code path} (an absolute path
     * of a regular file); empty when neither can key it (a pseudo-file, a deleted file without a build id).
     *
     * @param moduleSize the size of the module's bytes as parsed
     */
    public static Optional<ModuleIndexKey> of(String path, Optional<byte[]> buildId, long moduleSize) {
        if (buildId.isPresent() && buildId.get().length > 0 && buildId.get().length <= MAX_BUILD_ID) {
            byte[] id = buildId.get().clone();
            return Optional.of(new ModuleIndexKey(BUILD_ID, id, moduleSize,
                    "b" + HexFormat.of().formatHex(id) + "-" + Long.toHexString(moduleSize) + EXTENSION));
        }
        if (!path.startsWith("/") || path.length() > MAX_PATH) {
            return Optional.empty();
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(Path.of(path), BasicFileAttributes.class);
            if (!attributes.isRegularFile() || attributes.size() != moduleSize) {
                return Optional.empty();
            }
            long mtime = attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
            byte[] key = (path + '\0' + attributes.size() + '\0' + mtime).getBytes(StandardCharsets.UTF_8);
            return Optional.of(new ModuleIndexKey(FILE_STAT, key, moduleSize, "p" + digest(key) + EXTENSION));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The key of the running kernel's symbols: {@code identity} says which boot and which loaded modules they are of
     * (its bytes are kept and recorded in the file, so that another boot's file under the same name is refused).
     */
    public static ModuleIndexKey kernel(byte[] identity) {
        byte[] id = identity.clone();
        return new ModuleIndexKey(KERNEL, id, 0, "k" + digest(id) + EXTENSION);
    }

    /** A key as a file records it; {@code bytes} are the caller's, not copied. */
    static ModuleIndexKey recorded(int kind, byte[] bytes, long moduleSize) {
        return new ModuleIndexKey(kind, bytes, moduleSize, "");
    }

    private static String digest(byte[] key) {
        return KeyHash.of(key);
    }

    /** The index file's name in the cache directory. */
    public String fileName() {
        return fileName;
    }

    int kind() {
        return kind;
    }

    /** The key's bytes; not to be changed. */
    byte[] bytes() {
        return bytes;
    }

    long moduleSize() {
        return moduleSize;
    }

    /** Whether another key (one a file records) names the same module. */
    boolean sameModule(ModuleIndexKey other) {
        return kind == other.kind && moduleSize == other.moduleSize && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public String toString() {
        return fileName;
    }
}
