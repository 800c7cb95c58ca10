package io.mixflame.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;

/** Plain sockets for tests that talk to a server the way a careless or hostile client would. */
public final class RawSockets {
    private RawSockets() {
    }

    /**
     * Whether the peer closes the connection (with a FIN or a reset) within the time, reading and ignoring what
     * it sends before, such as an error response.
     */
    public static boolean closedByPeerWithin(Socket s, Duration timeout) throws IOException {
        s.setSoTimeout((int) timeout.toMillis());
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64 * 1024];
            while (in.read(buf) >= 0) {
                // Drain.
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;
        }
    }
}
