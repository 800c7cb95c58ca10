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

    // Written out: a record's generated equals and hashCode are bootstrapped through method handles, which the
    // JVM spins and compiles in the service's start-up (module maps compare their entries at every refresh).
    @Override
    public boolean equals(Object o) {
        return o instanceof LoadedModule m && m.image.equals(image) && m.start == start && m.end == end && m.bias == bias;
    }

    @Override
    public int hashCode() {
        return (image.hashCode() * 31 + Long.hashCode(start)) * 31 + Long.hashCode(end) * 7
                + Long.hashCode(bias);
    }
}
