package io.mixflame.image.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.mixflame.image.SymbolTable;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.index.ModuleIndexKey;
import io.mixflame.image.index.ModuleIndexStore;
import io.mixflame.testsupport.ElfImageBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Module indexes of real libraries (libc, libjvm): read back they name every address as the library's own symbols
 * do; damaged, truncated, foreign or concurrently written files never give a wrong table; a directory that cannot
 * be written, or bounds that leave no room, cost only the index.
 */
class IndexedSymbolTablesTest {
    private static final String LIBJVM = Path.of(System.getProperty("java.home"), "lib", "server", "libjvm.so").toString();

    @TempDir
    Path dir;

    /** The libc this JVM has mapped. */
    static String libc() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash > 0 && line.endsWith("/libc.so.6")) {
                return line.substring(slash);
            }
        }
        throw new IllegalStateException("no libc mapped");
    }

    private static Module module(String path) throws IOException {
        ElfFile elf = ElfFile.open(Path.of(path));
        return new Module(path, elf, DebugFiles.find(path, elf));
    }

    private record Module(String path, ElfFile elf, Optional<ElfFile> debug) {
        Optional<SymbolTable> indexed(IndexedSymbolTables tables) {
            return tables.indexed(path, elf, debug);
        }

        SymbolTable load(IndexedSymbolTables tables) {
            return tables.load(path, elf, debug);
        }

        SymbolTable fromFiles() {
            return new IndexedSymbolTables(ModuleIndexStore.DISABLED).load(path, elf, debug);
        }

        Path indexFile(Path dir) {
            return dir.resolve(ModuleIndexKey.of(path, elf.buildId(), elf.data().capacity()).orElseThrow().fileName());
        }
    }

    private IndexedSymbolTables tables() {
        return new IndexedSymbolTables(ModuleIndexStore.at(dir));
    }

    /** Same symbols, addresses and names: at every symbol, just inside and just past it, and at random addresses. */
    static void assertSameTable(SymbolTable actual, SymbolTable expected) {
        assertThat(actual.size()).isEqualTo(expected.size());
        Random random = new Random(24);
        long last = expected.size() == 0 ? 0 : expected.address(expected.size() - 1);
        for (int i = 0; i < expected.size(); i++) {
            long a = expected.address(i);
            assertThat(actual.address(i)).isEqualTo(a);
            assertThat(actual.name(i)).isEqualTo(expected.name(i));
            for (long probe : new long[] {a, a + 1, a - 1, random.nextLong(Math.max(1, last + 4096))}) {
                assertThat(actual.indexOf(probe)).as("at %x", probe).isEqualTo(expected.indexOf(probe));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"libc", "libjvm"})
    void aTableReadBackFromItsIndexIsTheLibrarysOwn(String which) throws IOException {
        Module m = module(which.equals("libc") ? libc() : LIBJVM);
        SymbolTable expected = m.fromFiles();
        assertThat(expected.size()).isGreaterThan(1000);
        assertThat(m.indexed(tables())).isEmpty();

        assertSameTable(m.load(tables()), expected);
        assertThat(m.indexFile(dir)).exists();
        assertThat(Files.size(m.indexFile(dir))).isGreaterThan((long) expected.size() * SymbolTable.ROW_BYTES);

        SymbolTable indexed = m.indexed(tables()).orElseThrow();
        assertSameTable(indexed, expected);
        assertSameTable(m.load(tables()), expected);
        try (var files = Files.list(dir)) {
            assertThat(files).hasSize(1);
        }
    }

    /** libc, its index written to {@link #dir}. */
    private Module indexedLibc() throws IOException {
        Module m = module(libc());
        m.load(tables());
        return m;
    }

    /**
     * With {@code bytes} in place of its index file, the module's index is refused, the table read from the files
     * instead, and the index written anew, whole.
     */
    private void assertRefusedAndRewritten(Module m, byte[] bytes, String why) throws IOException {
        Path file = m.indexFile(dir);
        long goodSize = Files.size(file);
        Files.write(file, bytes);
        assertThat(m.indexed(tables())).as(why).isEmpty();
        assertSameTable(m.load(tables()), m.fromFiles());
        assertThat(m.indexed(tables())).as("rewritten after " + why).isPresent();
        assertThat(Files.size(file)).as("rewritten whole after " + why).isEqualTo(goodSize);
    }

    private static byte[] flipped(byte[] good, int at) {
        byte[] bytes = good.clone();
        bytes[at] ^= 0x5a;
        return bytes;
    }

    @Test
    void aFlippedByteInThePayloadIsRefusedAndTheIndexRewritten() throws IOException {
        Module m = indexedLibc();
        byte[] good = Files.readAllBytes(m.indexFile(dir));
        for (int at : new int[] {good.length - 1, good.length - 5000, good.length / 2, 200}) {
            assertRefusedAndRewritten(m, flipped(good, at), "byte " + at + " flipped");
        }
    }

    @Test
    void aFlippedByteInTheHeaderIsRefused() throws IOException {
        Module m = indexedLibc();
        byte[] good = Files.readAllBytes(m.indexFile(dir));
        // magic, version, header size, checksum, section count, file size, module size, key kind and size, key,
        // section table
        for (int at : new int[] {0, 7, 8, 12, 16, 19, 20, 24, 32, 40, 44, 64, 70, 90}) {
            assertRefusedAndRewritten(m, flipped(good, at), "byte " + at + " flipped");
        }
    }

    @Test
    void aTruncatedFileIsRefusedWhereverItIsCut() throws IOException {
        Module m = indexedLibc();
        byte[] good = Files.readAllBytes(m.indexFile(dir));
        for (int length : new int[] {0, 1, 8, 63, 64, 100, 200, good.length / 2, good.length - 8, good.length - 1}) {
            assertRefusedAndRewritten(m, java.util.Arrays.copyOf(good, length), "a cut at " + length);
        }
    }

    @Test
    void anotherModulesIndexUnderTheSameNameIsRefused() throws IOException {
        Module libc = module(libc());
        Module jvm = module(LIBJVM);
        libc.load(tables());
        Files.copy(libc.indexFile(dir), jvm.indexFile(dir));
        assertThat(jvm.indexed(tables())).isEmpty();
        assertSameTable(jvm.load(tables()), jvm.fromFiles());
        assertThat(jvm.indexed(tables())).isPresent();
    }

    /** A module without a build id is keyed by path, size and time: once its file changes, its old index is not its. */
    @Test
    void aModuleWithoutBuildIdIsKeyedByItsFile() throws IOException {
        Path lib = dir.resolve("libplain.so");
        Files.write(lib, new ElfImageBuilder().symbol("plain_function", 0x1000).bytes());
        Path cache = Files.createDirectory(dir.resolve("cache"));
        IndexedSymbolTables tables = new IndexedSymbolTables(ModuleIndexStore.at(cache));
        Module m = module(lib.toString());
        assertThat(m.elf().buildId()).isEmpty();
        m.load(tables);
        Path first = m.indexFile(cache);
        assertThat(first.getFileName().toString()).startsWith("p");
        assertThat(m.indexed(tables)).isPresent();

        Files.setLastModifiedTime(lib, FileTime.fromMillis(Files.getLastModifiedTime(lib).toMillis() - 60_000));
        Path second = m.indexFile(cache);
        assertThat(second).isNotEqualTo(first).doesNotExist();
        Files.copy(first, second);
        assertThat(m.indexed(tables)).as("the file's old index under its new name").isEmpty();
    }

    /**
     * Writers and readers of one module's index at once, each with a store of its own as separate JVMs have: every
     * read gets the library's table or none, never a part of one.
     */
    @Test
    void concurrentWritersAndReadersNeverSeeAPartialFile() throws Exception {
        Module m = module(libc());
        SymbolTable expected = m.fromFiles();
        int threads = 6;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<int[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean writer = t % 2 == 0;
                results.add(pool.submit(() -> {
                    IndexedSymbolTables own = tables();
                    int[] seen = new int[2];
                    start.await();
                    for (int i = 0; i < 40; i++) {
                        if (writer) {
                            assertSameTable(own.buildAndIndex(m.path(), m.elf(), m.debug()), expected);
                        }
                        Optional<SymbolTable> read = m.indexed(own);
                        read.ifPresent(table -> assertSameTable(table, expected));
                        seen[read.isPresent() ? 1 : 0]++;
                    }
                    return seen;
                }));
            }
            start.countDown();
            int found = 0;
            for (Future<int[]> f : results) {
                found += f.get()[1];
            }
            assertThat(found).isPositive();
        } finally {
            pool.shutdownNow();
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(m.indexFile(dir).getFileName().toString());
        }
    }

    /** Below a regular file, and in /proc, nothing can be created: not even by root, as CI runs. */
    @ParameterizedTest
    @ValueSource(strings = {"below-a-file", "/proc/self/fdinfo"})
    void aDirectoryThatCannotBeWrittenCostsOnlyTheIndex(String where) throws IOException {
        Path cache = where.startsWith("/") ? Path.of(where) : Files.writeString(dir.resolve("file"), "x").resolve("cache");
        ModuleIndexStore store = ModuleIndexStore.at(cache);
        Module m = module(libc());
        SymbolTable expected = m.fromFiles();
        for (int i = 0; i < 2; i++) {
            assertSameTable(m.load(new IndexedSymbolTables(store)), expected);
        }
        // (AssertJ's doesNotExist cannot tell "not a directory" from existing.)
        assertThat(Files.exists(m.indexFile(cache))).isFalse();
    }

    /** Where permissions bind (not as root), a read-only directory is one too. */
    @Test
    void aReadOnlyDirectoryCostsOnlyTheIndex() throws IOException {
        assumeThat(System.getProperty("user.name")).isNotEqualTo("root");
        Path cache = Files.createDirectory(dir.resolve("ro"));
        assertThat(cache.toFile().setWritable(false, false)).isTrue();
        try {
            Module m = module(libc());
            assertSameTable(m.load(new IndexedSymbolTables(ModuleIndexStore.at(cache))), m.fromFiles());
            assertThat(m.indexFile(cache)).doesNotExist();
        } finally {
            cache.toFile().setWritable(true, false);
        }
    }

    @Test
    void aFileAboveTheFileBoundIsNotWritten() throws IOException {
        Module m = module(libc());
        IndexedSymbolTables small = new IndexedSymbolTables(new ModuleIndexStore(dir, 64 * 1024, 1L << 30));
        assertSameTable(m.load(small), m.fromFiles());
        assertThat(m.indexFile(dir)).doesNotExist();
    }

    /** The least recently used index goes first; a file that cannot fit even alone is not written. */
    @Test
    void theDirectoryBoundRemovesTheLeastRecentlyUsedIndex() throws IOException {
        Module libc = module(libc());
        Module jvm = module(LIBJVM);
        Path sizing = Files.createDirectory(dir.resolve("sizing"));
        jvm.load(new IndexedSymbolTables(ModuleIndexStore.at(sizing)));
        long jvmBytes = Files.size(jvm.indexFile(sizing));
        Path cache = Files.createDirectory(dir.resolve("cache"));
        Path other = Files.writeString(cache.resolve("not-an-index.txt"), "kept");
        libc.load(new IndexedSymbolTables(ModuleIndexStore.at(cache)));
        long libcBytes = Files.size(libc.indexFile(cache));
        Files.setLastModifiedTime(libc.indexFile(cache), FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));

        // Room for either but not for both: writing libjvm's removes libc's, the older.
        long bound = libcBytes + jvmBytes - 1;
        assertSameTable(jvm.load(new IndexedSymbolTables(new ModuleIndexStore(cache, 1L << 30, bound))),
                jvm.fromFiles());
        assertThat(jvm.indexFile(cache)).exists();
        assertThat(libc.indexFile(cache)).doesNotExist();
        assertThat(other).exists();

        IndexedSymbolTables tiny = new IndexedSymbolTables(new ModuleIndexStore(cache, 1L << 30, libcBytes / 2));
        assertSameTable(libc.load(tiny), libc.fromFiles());
        assertThat(libc.indexFile(cache)).doesNotExist();
        assertThat(jvm.indexFile(cache)).as("not removed in vain").exists();
    }
}
