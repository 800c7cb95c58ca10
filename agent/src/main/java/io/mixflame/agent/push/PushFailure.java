package io.mixflame.agent.push;

/**
 * Why a period did not go through.
 *
 * @param problem          what went wrong, for the log
 * @param retryable        whether trying again later may work
 * @param retryAfterMillis the wait the backend asked for, or -1
 */
record PushFailure(String problem, boolean retryable, long retryAfterMillis) {
}
