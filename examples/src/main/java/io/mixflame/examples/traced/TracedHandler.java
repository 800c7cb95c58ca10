package io.mixflame.examples.traced;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's core API, no servlets: {@code /inline} works on the request's thread, {@code /pooled} hands its work to an
 * executor and waits for it. Neither is woven by mixflame's own HTTP labels.
 */
final class TracedHandler extends Handler.Abstract {
    private final ExecutorService pool;

    TracedHandler(ExecutorService pool) {
        this.pool = pool;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        long result;
        if (path.equals("/inline")) {
            result = TracedWork.inline();
        } else if (path.equals("/pooled")) {
            result = pool.submit(TracedWork::pooled).get();
        } else {
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404);
            return true;
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
        response.write(true, ByteBuffer.wrap(Long.toString(result).getBytes(StandardCharsets.US_ASCII)), callback);
        return true;
    }
}
