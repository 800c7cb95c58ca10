package io.mixflame.image.index;

/**
 * A module index file that cannot be used: truncated, damaged, of another format version or of another module. The
 * message says why, in a few words for a debug log line; the caller builds what the file would have held instead.
 */
public final class IndexRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param reason why the file is refused */
    public IndexRefusedException(String reason) {
        super(reason, null, false, false);
    }
}
