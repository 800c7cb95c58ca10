package io.mixflame.process;

/**
 * The one way the stages read a 64-bit word of a process's or a thread's memory: a process as a whole
 * ({@link ProcessMemory}), a sampled stack with its copy ({@code unwind.StackMemory}), a DWARF expression's inputs, the
 * JVM's structures. Little-endian, the address need not be aligned.
 */
@FunctionalInterface
public interface MemoryWords {
    /** The 64-bit value at {@code address}. */
    long readLong(long address) throws MemoryReadException;
}
