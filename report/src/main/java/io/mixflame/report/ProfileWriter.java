package io.mixflame.report;

import io.mixflame.profile.Profile;
import java.io.IOException;
import java.io.OutputStream;

/** Writes a profile in one file format. */
public interface ProfileWriter {

    /**
     * Writes the whole profile to {@code out}. Leaves {@code out} open (the caller owns it) but flushed.
     *
     * @throws IOException when {@code out} fails
     */
    void write(Profile profile, OutputStream out) throws IOException;
}
