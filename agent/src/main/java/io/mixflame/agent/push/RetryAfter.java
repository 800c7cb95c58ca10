package io.mixflame.agent.push;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** The wait a {@code Retry-After} header asks for: seconds, or an HTTP date. */
final class RetryAfter {

    private RetryAfter() {
    }

    /**
     * The wait {@code value} asks for, in milliseconds, at most {@code maxMillis}; -1 when there is no header or it
     * cannot be read (the caller's own backoff applies then).
     *
     * @param nowMillis the current time, for a date
     */
    static long millis(String value, long nowMillis, long maxMillis) {
        if (value == null || value.isBlank()) {
            return -1;
        }
        String v = value.strip();
        long wait;
        if (digits(v)) {
            // Past the bound in seconds already is as good as the bound; a number too long for a long is too.
            wait = v.length() > 9 ? maxMillis : Long.parseLong(v) * 1000;
        } else {
            try {
                wait = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli()
                        - nowMillis;
            } catch (DateTimeParseException e) {
                return -1;
            }
        }
        return Math.max(0, Math.min(wait, maxMillis));
    }

    private static boolean digits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
