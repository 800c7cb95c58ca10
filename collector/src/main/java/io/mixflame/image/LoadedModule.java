package io.mixflame.image;

/**
 * A module mapped into a process: its executable range there and the bias from the file's addresses.
 *
 * @param image the file
 * @param start first address of the executable mapping
 * @param end   first address after it
 * @param bias  process address minus the file's link-time address
 */
public record LoadedModule(ModuleImage image, long start, long end, long bias) {
    /** Whether an address lies in the mapping. */
    public boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
    }
}
