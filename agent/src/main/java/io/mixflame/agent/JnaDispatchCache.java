package io.mixflame.agent;

import com.sun.jna.Platform;
import io.mixflame.image.index.ModuleIndexStore;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Has JNA load its native part (libjnidispatch) from the host's cache directory instead of unpacking it from the jar
 * at every start. Unpacking writes a temporary file with a random name, and the random name starts the JDK's
 * {@code SecureRandom} and its message digests: a hundred JDK classes loaded and their code compiled by the
 * service's JIT in its start-up, for a copy that is the same every time.
 *
 * <p>The copy is named by the jar entry's CRC-32 and size, written once per host (a temporary file renamed into
 * place, so a reader never sees a partial one), and checked against that CRC before every use: a damaged, truncated
 * or foreign file is replaced, and when the directory cannot be written JNA unpacks as it always did. JNA is pointed
 * at the copy through its {@code jna.boot.library.path} and {@code jna.boot.library.name} properties, set only
 * while the profiler's JNA initializes and cleared right after, so that an application's own JNA does not see them;
 * where the user set either, nothing is changed. Those properties are the whole JVM's: while they are set, an
 * application's JNA that initializes would load the profiler's copy (and, being another version, fail its own check
 * and stay unusable). Before {@code main} and in the command-line tool nothing else loads JNA meanwhile; once the
 * application runs (an attach) JNA is left to unpack its library as it always does ({@link #leaveToJna}).
 */
public final class JnaDispatchCache {
    static final String PATH_PROPERTY = "jna.boot.library.path";
    static final String NAME_PROPERTY = "jna.boot.library.name";
    /** Cached copies are named {@code jnidispatch-CRC-SIZE}, as {@link System#mapLibraryName} decorates it. */
    static final String NAME_PREFIX = "jnidispatch-";
    /** JNA's native library is about 130–280 KB; anything much larger is not what it claims to be. */
    private static final long MAX_BYTES = 4L << 20;
    /** Listing the directory for stale copies stops here: it may be shared with a great many index files. */
    private static final int MAX_LISTED = 4096;
    /** A temporary copy this old was left by a process that died writing it: a write takes milliseconds. */
    private static final long ABANDONED_AFTER_MILLIS = 10 * 60 * 1000L;
    /** Where the boot classes say the profiler's jar is ({@code io.mixflame.boot.CliBoot}). */
    private static final String JAR_PROPERTY = "mixflame.jar";
    /** Where in that jar the isolated loader finds the profiler's classes and JNA's libraries. */
    private static final String ISOLATED_PREFIX = "MIXFLAME-INF/classes/";
    private static final Logger LOG = LoggerFactory.getLogger(JnaDispatchCache.class);
    /** Whether the profiler's JNA was seen to already; guarded by the class. */
    private static boolean attempted;

    private JnaDispatchCache() {
    }

    /**
     * Leaves JNA to find its library itself (unpacking a temporary copy), without the properties that point at the
     * host's copy: for an agent attached to a running application, whose own JNA may initialize while the profiler's
     * does. Nothing once the profiler's JNA has been seen to already.
     */
    public static synchronized void leaveToJna() {
        attempted = true;
    }

    /**
     * Initializes the profiler's JNA from the copy in this JVM's module index directory ({@code cachedir=}), for the
     * agent and the command-line tool alike; nothing when there is no such directory or the profiler was not loaded
     * from its jar (tests). Never throws.
     */
    public static synchronized void initializeFromHostCache() {
        // Once per JVM: each later agent command (an attach's start, stop, dump) would only read and check the copy
        // again, JNA being initialized already.
        if (attempted) {
            return;
        }
        attempted = true;
        try {
            ModuleIndexStore store = ModuleIndexStore.shared();
            String jar = System.getProperty(JAR_PROPERTY);
            if (store.enabled() && jar != null) {
                initializeJna(store.directory(), Path.of(jar), ISOLATED_PREFIX,
                        JnaDispatchCache.class.getClassLoader());
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("JNA's library not loaded from the cache directory: {}", e.toString());
        }
    }

    /**
     * Initializes JNA in {@code loader} from a copy of its library in {@code directory}, making the copy first if
     * needed; JNA unpacks its library itself when anything here fails. Never throws.
     *
     * @param jar the profiler's jar, whose {@code entryPrefix} holds JNA's classes and libraries
     */
    static void initializeJna(Path directory, Path jar, String entryPrefix, ClassLoader loader) {
        String name = null;
        try {
            if (System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null) {
                return;
            }
            Optional<String> prepared = prepare(directory, jar, entryPrefix + resource());
            if (prepared.isEmpty()) {
                return;
            }
            name = prepared.get();
            System.setProperty(PATH_PROPERTY, directory.toString());
            System.setProperty(NAME_PROPERTY, name);
            Class.forName("com.sun.jna.Native", true, loader);
            // JNA says here which file it loaded: the copy, or its own unpacking when the copy would not load.
            LOG.debug("JNA's library loaded from {}", System.getProperty("jnidispatch.path"));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.debug("JNA's library not loaded from {}: {}", directory, e.toString());
        } finally {
            if (name != null) {
                System.clearProperty(PATH_PROPERTY);
                System.clearProperty(NAME_PROPERTY);
            }
        }
    }

    /** Where JNA keeps this platform's library in its jar, as JNA itself looks for it. */
    static String resource() {
        return "com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + System.mapLibraryName("jnidispatch");
    }

    /**
     * Makes sure {@code directory} holds a checked copy of the jar's {@code entry}, writing it when it is missing or
     * does not match; the library name to give JNA, or empty when there is no such entry or no copy could be made.
     */
    static Optional<String> prepare(Path directory, Path jar, String entry) {
        try (JarFile file = new JarFile(jar.toFile(), false)) {
            ZipEntry e = file.getEntry(entry);
            if (e == null || e.getCrc() < 0 || e.getSize() <= 0 || e.getSize() > MAX_BYTES) {
                return Optional.empty();
            }
            String name = NAME_PREFIX + Long.toHexString(e.getCrc()) + "-" + e.getSize();
            Path copy = directory.resolve(System.mapLibraryName(name));
            if (matches(copy, e.getCrc(), e.getSize())) {
                return Optional.of(name);
            }
            Files.createDirectories(directory);
            Path temporary = directory.resolve(copy.getFileName() + "." + System.nanoTime() + ".tmp");
            try {
                // O_EXCL: a file or link already there fails the write rather than being written through.
                if (!temporary.toFile().createNewFile()) {
                    return Optional.empty();
                }
                try (InputStream in = file.getInputStream(e);
                     OutputStream out = new FileOutputStream(temporary.toFile())) {
                    in.transferTo(out);
                }
                if (!matches(temporary, e.getCrc(), e.getSize())) {
                    return Optional.empty();
                }
                Files.move(temporary, copy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException moveFailed) {
                // Another process may have put its copy there meanwhile (or, on Windows, one in use is in the way).
                if (!matches(copy, e.getCrc(), e.getSize())) {
                    throw moveFailed;
                }
            } finally {
                Files.deleteIfExists(temporary);
            }
            removeStale(directory, copy.getFileName().toString());
            LOG.debug("JNA's library copied to {}", copy);
            return Optional.of(name);
        } catch (IOException | RuntimeException e) {
            LOG.debug("no copy of JNA's library in {}: {}", directory, e.toString());
            return Optional.empty();
        }
    }

    /** Whether {@code file} is a regular file (not a link) of {@code size} bytes whose CRC-32 is {@code crc}. */
    static boolean matches(Path file, long crc, long size) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        File f = file.toFile();
        if (f.length() != size) {
            return false;
        }
        CRC32 sum = new CRC32();
        byte[] buffer = new byte[16 * 1024];
        long total = 0;
        try (InputStream in = new FileInputStream(f)) {
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                sum.update(buffer, 0, n);
                total += n;
                if (total > size) {
                    return false;
                }
            }
        }
        return total == size && sum.getValue() == crc;
    }

    /**
     * Removes the copies of other JNA builds (an upgraded jar's), so that the directory holds one, and temporary files
     * that a process which died while writing left behind; best effort.
     */
    private static void removeStale(Path directory, String keep) {
        String decorated = System.mapLibraryName(NAME_PREFIX);
        String head = decorated.substring(0, decorated.indexOf(NAME_PREFIX) + NAME_PREFIX.length());
        File[] files = directory.toFile().listFiles();
        if (files == null) {
            return;
        }
        long abandoned = System.currentTimeMillis() - ABANDONED_AFTER_MILLIS;
        for (int i = 0; i < files.length && i < MAX_LISTED; i++) {
            String n = files[i].getName();
            boolean temporary = n.endsWith(".tmp");
            if (n.startsWith(head) && !n.equals(keep) && (!temporary || files[i].lastModified() < abandoned)) {
                // A copy another JVM has loaded stays mapped in it; on Windows the delete simply fails.
                files[i].delete();
            }
        }
    }
}
