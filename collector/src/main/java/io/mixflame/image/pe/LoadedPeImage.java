package io.mixflame.image.pe;

/**
 * A PE image as a process has it loaded: where it lies and what unwinds its functions.
 *
 * @param name        how frames in it are named (its file name, {@code ntdll.dll})
 * @param base        the address it was loaded at, which its RVAs are relative to
 * @param size        bytes of address space it occupies (its size of image)
 * @param unwindTable its exception directory
 */
public record LoadedPeImage(String name, long base, long size, PeUnwindTable unwindTable) {
    public LoadedPeImage {
        long end = base + size;
        // An image may end at the very top of the address space (end wraps to 0), not past it.
        if (size <= 0 || end != 0 && Long.compareUnsigned(end, base) < 0) {
            throw new IllegalArgumentException(name + ": bad range 0x" + Long.toHexString(base) + "+" + size);
        }
    }

    /** Whether an address lies in {@code [base, base + size)}. */
    public boolean contains(long address) {
        return Long.compareUnsigned(address - base, size) < 0;
    }
}
