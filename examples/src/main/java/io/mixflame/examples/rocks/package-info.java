/**
 * The {@code rocks} workload: a real JNI library at work, RocksDB (C++ with threads of its own, some of it without
 * symbols, loaded from a temporary copy with a random name), driven from the main thread.
 */
package io.mixflame.examples.rocks;
