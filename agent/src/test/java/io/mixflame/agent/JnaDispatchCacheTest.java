package io.mixflame.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The host's copy of JNA's library: written once, checked before each use, replaced when it does not match. */
class JnaDispatchCacheTest {
    private static final String ENTRY = "MIXFLAME-INF/classes/com/sun/jna/test/libjnidispatch.so";

    @TempDir
    Path dir;
    private Path jar;
    private byte[] library;
    private Path cache;

    @BeforeEach
    void jarWithALibrary() throws IOException {
        library = new byte[50_000];
        new Random(7).nextBytes(library);
        jar = dir.resolve("agent.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry(ENTRY));
            out.write(library);
            out.closeEntry();
        }
        cache = dir.resolve("cache");
    }

    private String expectedName() {
        CRC32 crc = new CRC32();
        crc.update(library);
        return JnaDispatchCache.NAME_PREFIX + Long.toHexString(crc.getValue()) + "-" + library.length;
    }

    private Path copy() {
        return cache.resolve(System.mapLibraryName(expectedName()));
    }

    @Test
    void writesTheCopyOnceAndUsesItThen() throws IOException {
        assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).contains(expectedName());
        assertThat(Files.readAllBytes(copy())).isEqualTo(library);
        long written = Files.getLastModifiedTime(copy()).toMillis();
        Files.setLastModifiedTime(copy(), java.nio.file.attribute.FileTime.fromMillis(written - 60_000));
        assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).contains(expectedName());
        assertThat(Files.getLastModifiedTime(copy()).toMillis()).as("not written again").isEqualTo(written - 60_000);
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void replacesADamagedTruncatedOrForeignCopy() throws IOException {
        Files.createDirectories(cache);
        byte[] damaged = library.clone();
        damaged[1234] ^= 1;
        byte[] truncated = Arrays.copyOf(library, library.length - 1);
        byte[] foreign = new byte[library.length];
        for (byte[] bad : List.of(damaged, truncated, foreign)) {
            Files.write(copy(), bad);
            assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).contains(expectedName());
            assertThat(Files.readAllBytes(copy())).isEqualTo(library);
        }
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aLinkInItsPlaceIsNotFollowed() throws IOException {
        Files.createDirectories(cache);
        Path elsewhere = dir.resolve("elsewhere.so");
        Files.write(elsewhere, library);
        Files.createSymbolicLink(copy(), elsewhere);
        assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).contains(expectedName());
        assertThat(Files.isSymbolicLink(copy())).isFalse();
        assertThat(Files.readAllBytes(copy())).isEqualTo(library);
    }

    @Test
    void removesOtherBuildsCopies() throws IOException {
        Files.createDirectories(cache);
        Path older = cache.resolve(System.mapLibraryName(JnaDispatchCache.NAME_PREFIX + "12345678-999"));
        Files.write(older, new byte[999]);
        Path index = cache.resolve("b0123-45.mfidx");
        Files.write(index, new byte[8]);
        assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).isPresent();
        assertThat(older).doesNotExist();
        assertThat(index).exists();
    }

    @Test
    void aDirectoryThatCannotBeWrittenLeavesJnaToItself() throws IOException {
        Files.createDirectories(cache);
        Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeThat(Files.isWritable(cache)).as("a read-only directory (root writes anyway)").isFalse();
            assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).isEmpty();
        } finally {
            Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void aPathThatIsAFileLeavesJnaToItself() throws IOException {
        Files.write(cache, new byte[1]);
        assertThat(JnaDispatchCache.prepare(cache, jar, ENTRY)).isEmpty();
        assertThat(JnaDispatchCache.prepare(dir, jar, "no/such/entry.so")).isEmpty();
    }

    /** Processes that write at once each end with the one good copy, and no temporary file stays. */
    @Test
    void concurrentWritersAgree() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Callable<Optional<String>> write = () -> JnaDispatchCache.prepare(cache, jar, ENTRY);
            List<Future<Optional<String>>> results = pool.invokeAll(List.of(write, write, write, write, write, write));
            for (Future<Optional<String>> r : results) {
                assertThat(r.get()).contains(expectedName());
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(Files.readAllBytes(copy())).isEqualTo(library);
        assertThat(leftovers()).isEmpty();
    }

    /** The real jar's entry for this platform is where JNA itself looks. */
    @Test
    void theResourceIsWhereJnaKeepsThisPlatformsLibrary() {
        assertThat(JnaDispatchCache.resource()).startsWith("com/sun/jna/")
                .endsWith(System.mapLibraryName("jnidispatch"));
        assertThat(JnaDispatchCache.class.getClassLoader().getResource(JnaDispatchCache.resource())).isNotNull();
    }

    private List<String> leftovers() throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }
}
