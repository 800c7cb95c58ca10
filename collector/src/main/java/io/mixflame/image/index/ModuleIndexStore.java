package io.mixflame.image.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A directory of module index files shared by every JVM on the host: each module's index is written once, by the
 * first process that reads the module, and mapped read-only by the others. Bounded: a file larger than
 * {@code maxFileBytes} is not written, and before a write the least recently used indexes are removed to keep the
 * directory within {@code maxDirectoryBytes} (the write is skipped when that cannot make room). Failing softly:
 * a file that fails verification is ignored (one debug line) and the caller rebuilds and rewrites it; a directory
 * that cannot be written is said once (one info line), and the process goes on without writing there.
 */
public final class ModuleIndexStore {
    /** Bound of one index file: libjvm's 60 000 symbols take 1.4 MB. */
    public static final long DEFAULT_MAX_FILE_BYTES = 32L << 20;
    /** Bound of the whole directory. */
    public static final long DEFAULT_MAX_DIRECTORY_BYTES = 256L << 20;
    /** A store that neither reads nor writes: every module is read from its file. */
    public static final ModuleIndexStore DISABLED = new ModuleIndexStore(null, 0, 0);
    /** A read refreshes a file's time for the bound's "least recently used" at most this often. */
    private static final long TOUCH_AFTER_MILLIS = 60 * 60 * 1000L;
    private static final Logger LOG = LoggerFactory.getLogger(ModuleIndexStore.class);
    private static volatile ModuleIndexStore shared;

    private final Path directory;
    private final long maxFileBytes;
    private final long maxDirectoryBytes;
    private volatile boolean unwritable;
    private final AtomicBoolean unwritableSaid = new AtomicBoolean();

    /**
     * @param directory         where the files are; created on the first write
     * @param maxFileBytes      larger index files are neither written nor read
     * @param maxDirectoryBytes what this cache's files in the directory may add up to
     */
    public ModuleIndexStore(Path directory, long maxFileBytes, long maxDirectoryBytes) {
        this.directory = directory;
        this.maxFileBytes = maxFileBytes;
        this.maxDirectoryBytes = maxDirectoryBytes;
    }

    /** A store in {@code directory} with the default bounds. */
    public static ModuleIndexStore at(Path directory) {
        return new ModuleIndexStore(directory, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_DIRECTORY_BYTES);
    }

    /** The store this JVM uses: the one {@link #useShared} set, else the default directory with default bounds. */
    public static ModuleIndexStore shared() {
        ModuleIndexStore s = shared;
        if (s == null) {
            synchronized (ModuleIndexStore.class) {
                if (shared == null) {
                    Optional<Path> directory = DefaultCacheDirectory.forThisProcess();
                    shared = directory.isPresent() ? at(directory.get()) : DISABLED;
                }
                s = shared;
            }
        }
        return s;
    }

    /** Makes {@code store} the one modules read from now on use (the agent's {@code cachedir=}). */
    public static void useShared(ModuleIndexStore store) {
        synchronized (ModuleIndexStore.class) {
            shared = store;
        }
    }

    /** Whether this store reads and writes at all. */
    public boolean enabled() {
        return directory != null;
    }

    /** The directory, or null when disabled. */
    public Path directory() {
        return directory;
    }

    /**
     * The verified index of {@code key}'s module; empty when there is none, or when the file is damaged, truncated,
     * of another module or version (one debug line: the caller rebuilds it and {@link #write}s it anew).
     */
    public Optional<ModuleIndex> open(ModuleIndexKey key) {
        if (directory == null) {
            return Optional.empty();
        }
        Path path = directory.resolve(key.fileName());
        try {
            ModuleIndex index = ModuleIndexReader.read(path, key, maxFileBytes);
            touch(path);
            return Optional.of(index);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IndexRefusedException e) {
            LOG.debug("module index {} refused ({}); rebuilt", path, e.getMessage());
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            LOG.debug("module index {} unreadable ({}); rebuilt", path, e.toString());
            return Optional.empty();
        }
    }

    /** Keeps a file in use from being the bound's first to go. Another user's read-only directory refuses: no matter. */
    private static void touch(Path path) {
        try {
            long now = System.currentTimeMillis();
            if (now - Files.getLastModifiedTime(path).toMillis() > TOUCH_AFTER_MILLIS) {
                Files.setLastModifiedTime(path, FileTime.fromMillis(now));
            }
        } catch (IOException | RuntimeException e) {
            // Only the order of removal suffers.
        }
    }

    /**
     * Writes the index of {@code key}'s module, atomically; false when it was not written (disabled, over a bound,
     * or the directory cannot be written, which is said once).
     */
    public boolean write(ModuleIndexKey key, List<IndexSection> sections) {
        if (directory == null || unwritable) {
            return false;
        }
        long bytes = ModuleIndexWriter.fileBytes(key, sections);
        if (bytes > maxFileBytes) {
            LOG.debug("module index {} not written: {} bytes, above the bound of {}", key, bytes, maxFileBytes);
            return false;
        }
        try {
            Files.createDirectories(directory);
            if (!DirectoryBudget.makeRoom(directory, bytes, maxDirectoryBytes)) {
                LOG.debug("module index {} not written: {} bytes do not fit in the directory's {}", key, bytes,
                        maxDirectoryBytes);
                return false;
            }
            ModuleIndexWriter.write(directory, key, sections);
            return true;
        } catch (IOException | RuntimeException e) {
            unwritable = true;
            if (unwritableSaid.compareAndSet(false, true)) {
                LOG.info("module index cache {} cannot be written ({}); modules' symbols are read from their files",
                        directory, e.toString());
            }
            return false;
        }
    }
}
