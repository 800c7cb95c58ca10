package io.mixflame.image.pe;

/** A PE/COFF image, or a table in it, is not what its headers say. */
public final class PeFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PeFormatException(String message) {
        super(message);
    }
}
