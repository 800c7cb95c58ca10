package io.mixflame.examples.rocks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * A real JNI library at work: RocksDB (17 MB of C++ with zstd, some of it without symbols, loaded from a temporary
 * copy with a random name) driven from the main thread in rounds of puts, gets and short scans, while RocksDB's own
 * native threads ({@code rocksdb:low}, {@code rocksdb:high}) flush and compact with zstd. Small write buffers and an
 * early compaction trigger keep those threads busy. Every call into the library is made from a method of this class
 * ({@link #writeRound}, {@link #readRound}, {@link #scanRound}): a profile should show one of them below every
 * sample of the main thread in the library.
 *
 * <p>Needs {@code org.rocksdb:rocksdbjni} on the class path: the examples jar does not carry it (92 MB); the build
 * copies it to {@code examples/target/workloads/rocksdbjni.jar}.
 */
public final class RocksWorkload {
    private static final int KEYS = 400_000;
    private static final int VALUE_BYTES = 256;
    static volatile long sink;

    private RocksWorkload() {
    }

    /** Runs for {@code seconds}, then prints the rounds done and removes the database. */
    public static void run(long seconds) throws IOException, RocksDBException {
        RocksDB.loadLibrary();
        Path dir = Files.createTempDirectory("mixflame-rocks");
        long rounds = 0;
        try (Options options = options(); WriteOptions writes = new WriteOptions().setDisableWAL(true);
             RocksDB db = RocksDB.open(options, dir.toString())) {
            SplittableRandom random = new SplittableRandom(42);
            byte[] value = new byte[VALUE_BYTES];
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < deadline) {
                writeRound(db, writes, random, value);
                readRound(db, random);
                scanRound(db, random);
                rounds++;
            }
        } finally {
            delete(dir);
        }
        System.out.println("rocks: " + rounds + " rounds in " + seconds + " s");
    }

    private static Options options() {
        return new Options().setCreateIfMissing(true)
                .setCompressionType(CompressionType.ZSTD_COMPRESSION)
                .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION)
                .setWriteBufferSize(2L << 20)
                .setMaxWriteBufferNumber(3)
                .setLevel0FileNumCompactionTrigger(2)
                .setTargetFileSizeBase(2L << 20)
                .setMaxBytesForLevelBase(8L << 20)
                .setMaxBackgroundJobs(2);
    }

    static void writeRound(RocksDB db, WriteOptions writes, SplittableRandom random, byte[] value) throws RocksDBException {
        for (int i = 0; i < 200; i++) {
            int k = random.nextInt(KEYS);
            fill(value, k, random);
            db.put(writes, key(k), value);
        }
    }

    static void readRound(RocksDB db, SplittableRandom random) throws RocksDBException {
        long found = 0;
        for (int i = 0; i < 200; i++) {
            byte[] v = db.get(key(random.nextInt(KEYS)));
            found += v == null ? 0 : v.length;
        }
        sink += found;
    }

    static void scanRound(RocksDB db, SplittableRandom random) {
        long bytes = 0;
        try (RocksIterator it = db.newIterator()) {
            it.seek(key(random.nextInt(KEYS)));
            for (int i = 0; i < 50 && it.isValid(); i++) {
                bytes += it.value().length;
                it.next();
            }
        }
        sink += bytes;
    }

    /** {@code key} and nine decimal digits: sorted as the numbers are. */
    private static byte[] key(int k) {
        byte[] key = {'k', 'e', 'y', '0', '0', '0', '0', '0', '0', '0', '0', '0'};
        for (int i = key.length - 1, n = k; n > 0; i--, n /= 10) {
            key[i] = (byte) ('0' + n % 10);
        }
        return key;
    }

    /** Values that compress, but not to nothing: a few random bytes among repeated text. */
    private static void fill(byte[] value, int k, SplittableRandom random) {
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) ('a' + (i + k) % 23);
        }
        for (int i = 0; i < 16; i++) {
            value[random.nextInt(value.length)] = (byte) random.nextInt();
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
