package io.mixflame.agent.push;

/**
 * What a backend answered to a push.
 *
 * @param status     the HTTP status
 * @param reason     the status line's reason, or null
 * @param retryAfter the {@code Retry-After} header, or null
 * @param body       the start of the body, printable and shortened, empty when none was read
 */
record PushResponse(int status, String reason, String retryAfter, String body) {

    /** Whether the push went through. */
    boolean accepted() {
        return status >= 200 && status < 300;
    }

    /** Whether the same push may go through later: a timeout, too many requests or a server's trouble. */
    boolean retryable() {
        return status == 408 || status == 429 || status >= 500;
    }

    /** As a log line says it: {@code 503 Service Unavailable: overloaded}. */
    String describe() {
        return status + (reason == null || reason.isEmpty() ? "" : " " + reason) + (body.isEmpty() ? "" : ": " + body);
    }
}
