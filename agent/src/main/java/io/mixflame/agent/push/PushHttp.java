package io.mixflame.agent.push;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Sends one push over {@link HttpURLConnection} (HTTPS by the JDK's default TLS): the agent must not need the
 * {@code java.net.http} module, which a jlinked runtime may lack. Each request has a connection of its own, closed
 * after it: a push a minute gains nothing from keeping one open, and leaves nothing open in the service.
 */
final class PushHttp {
    /** How much of a response's body is read, at most. */
    static final int MAX_BODY_READ = 4096;
    /** How much of it a log line shows, at most. */
    static final int MAX_BODY_SHOWN = 200;

    private PushHttp() {
    }

    /**
     * POSTs {@code request}.
     *
     * @param authorization the {@code Authorization} header, or null
     * @param headers       headers to send besides the push's own
     * @throws IOException when no answer came: no connection, a timeout, a broken connection
     */
    static PushResponse post(PushRequest request, String authorization, PushHeaders headers, int connectMillis,
                             int readMillis) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(request.url()).toURL().openConnection();
        try {
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setUseCaches(false);
            // A redirect would carry the credentials to wherever it points.
            c.setInstanceFollowRedirects(false);
            c.setConnectTimeout(connectMillis);
            c.setReadTimeout(readMillis);
            c.setFixedLengthStreamingMode(request.body().length);
            c.setRequestProperty("Content-Type", request.contentType());
            if (request.contentEncoding() != null) {
                c.setRequestProperty("Content-Encoding", request.contentEncoding());
            }
            c.setRequestProperty("Connection", "close");
            c.setRequestProperty("User-Agent", PyroscopePush.SPY_NAME);
            if (authorization != null) {
                c.setRequestProperty("Authorization", authorization);
            }
            for (java.util.Map.Entry<String, String> h : headers.headers().entrySet()) {
                c.setRequestProperty(h.getKey(), h.getValue());
            }
            try (OutputStream out = c.getOutputStream()) {
                out.write(request.body());
            }
            int status = c.getResponseCode();
            if (status < 0) {
                throw new IOException("the answer was no HTTP response");
            }
            String body = status >= 200 && status < 300 ? "" : shown(c.getErrorStream());
            return new PushResponse(status, c.getResponseMessage(), c.getHeaderField("Retry-After"), body);
        } finally {
            c.disconnect();
        }
    }

    /** The start of an error body, as one printable line. */
    private static String shown(InputStream in) {
        if (in == null) {
            return "";
        }
        byte[] bytes;
        try (in) {
            bytes = in.readNBytes(MAX_BODY_READ);
        } catch (IOException e) {
            return "";
        }
        return printable(new String(bytes, StandardCharsets.UTF_8));
    }

    /** {@code text} on one line: control characters and runs of white space as one space, cut to its bound. */
    static String printable(String text) {
        StringBuilder sb = new StringBuilder(Math.min(text.length(), MAX_BODY_SHOWN + 1));
        for (int i = 0; i < text.length() && sb.length() <= MAX_BODY_SHOWN; i++) {
            char c = text.charAt(i);
            boolean blank = Character.isISOControl(c) || Character.isWhitespace(c) || c == '\ufffd';
            if (!blank) {
                sb.append(c);
            } else if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ' ') {
                sb.append(' ');
            }
        }
        String line = sb.toString().strip();
        return line.length() > MAX_BODY_SHOWN ? line.substring(0, MAX_BODY_SHOWN) + "…" : line;
    }
}
