package io.mixflame.report;

import java.io.IOException;

/**
 * A consumer that may fail with an {@link IOException}, for code that writes to a stream it is handed.
 *
 * @param <T> what it consumes
 */
@FunctionalInterface
public interface IOConsumer<T> {

    /** Consumes {@code value}. */
    void accept(T value) throws IOException;
}
