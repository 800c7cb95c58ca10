package io.mixflame.examples;

/** Whether RocksDB's Java binding is on the class path: the examples jar runs without it, except its rocks workload. */
final class RocksLibrary {
    private RocksLibrary() {
    }

    static boolean present() {
        try {
            Class.forName("org.rocksdb.RocksDB", false, RocksLibrary.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
