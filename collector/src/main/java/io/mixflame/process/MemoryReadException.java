package io.mixflame.process;

/**
 * An address could not be read. Thrown on paths that meet bad addresses routinely (a walk through garbage), so
 * it carries no stack trace and costs little to create.
 */
public final class MemoryReadException extends Exception {
    private static final long serialVersionUID = 1L;
    private final long address;

    public MemoryReadException(long address) {
        super(null, null, false, false);
        this.address = address;
    }

    /** The address that failed. */
    public long address() {
        return address;
    }

    @Override
    public String getMessage() {
        return "cannot read 0x" + Long.toHexString(address);
    }
}
