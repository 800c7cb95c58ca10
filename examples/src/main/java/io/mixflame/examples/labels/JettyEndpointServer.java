package io.mixflame.examples.labels;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The two endpoints as servlets on a real Jetty (12, jakarta.servlet 6): {@code /heavy} mapped exactly and
 * {@code /light/*} by prefix, so that {@code /light/ID} requests are labelled by the pattern, not by their ids.
 */
final class JettyEndpointServer implements AutoCloseable {
    private final Server server;
    private final ServerConnector connector;

    private JettyEndpointServer(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    static JettyEndpointServer start() throws Exception {
        Server server = new Server(new QueuedThreadPool(16, 4));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new WorkServlet(true)), "/heavy");
        context.addServlet(new ServletHolder(new WorkServlet(false)), "/light/*");
        server.setHandler(context);
        server.start();
        return new JettyEndpointServer(server, connector);
    }

    int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    /** One endpoint's servlet. */
    private static final class WorkServlet extends HttpServlet {
        private final boolean heavy;

        WorkServlet(boolean heavy) {
            this.heavy = heavy;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            long result = heavy ? EndpointWork.heavy() : EndpointWork.light();
            response.setContentType("text/plain");
            response.getOutputStream().write(Long.toString(result).getBytes(StandardCharsets.US_ASCII));
        }
    }
}
