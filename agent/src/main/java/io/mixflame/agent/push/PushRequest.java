package io.mixflame.agent.push;

/**
 * One HTTP POST of a push.
 *
 * @param url             where to, query included
 * @param contentType     the body's {@code Content-Type}
 * @param contentEncoding the body's {@code Content-Encoding}, or null
 * @param body            the body, as sent
 */
record PushRequest(String url, String contentType, String contentEncoding, byte[] body) {
}
