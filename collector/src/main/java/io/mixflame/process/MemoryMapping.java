package io.mixflame.process;

/**
 * One line of {@code /proc/PID/maps}.
 *
 * @param start      first address
 * @param end        first address after the mapping
 * @param readable   r
 * @param writable   w
 * @param executable x
 * @param fileOffset offset in the mapped file
 * @param inode      the file's inode, 0 for anonymous memory
 * @param path       the file, a pseudo-name such as {@code [vdso]} or {@code [stack]}, or empty
 */
public record MemoryMapping(long start, long end, boolean readable, boolean writable, boolean executable,
                            long fileOffset, long inode, String path) {

    /** Whether the address lies inside. */
    public boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
    }

    /** Whether a real file backs it (not anonymous memory and not a pseudo-name like {@code [vdso]}). */
    public boolean isFile() {
        return inode != 0 && path.startsWith("/");
    }
}
