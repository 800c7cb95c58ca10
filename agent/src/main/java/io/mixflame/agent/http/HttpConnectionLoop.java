package io.mixflame.agent.http;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small HTTP/1.x server for a few GET endpoints inside someone else's JVM: one daemon thread with a
 * {@link Selector} accepts connections, reads request heads without blocking and writes responses without
 * blocking; complete requests go to a small pool of daemon worker threads. Every resource is bounded:
 * <ul>
 *   <li>at most {@link Limits#maxConnections} connections; when one more arrives, the oldest connection that has
 *       not finished sending its request (or is already answered) is dropped for it, and if every connection is
 *       being answered, the new one is closed at once;</li>
 *   <li>a request head of at most {@link Limits#maxHeadBytes} (else 431), complete within
 *       {@link Limits#headTimeout} of the connection's acceptance (else 408): slow and idle clients hold no
 *       thread and are dropped;</li>
 *   <li>a response must be taken by the client within {@link Limits#writeTimeout}, else the connection is
 *       dropped: a client that never reads pins nothing;</li>
 *   <li>{@link Limits#workers} worker threads, which exit when idle, and a queue no longer than the connection
 *       limit.</li>
 * </ul>
 * Every response closes its connection. After the response the server stops sending and discards what the client
 * still sends for a moment ({@link Limits#lingerTimeout}), so that the client reads the response rather than a
 * reset.
 */
final class HttpConnectionLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpConnectionLoop.class);
    private static final int MAX_DISCARDED_BYTES = 64 * 1024;
    private static final long ACCEPT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_SELECT_MILLIS = 1_000;

    /** Answers one complete request on a worker thread; may block (a profile window does). */
    @FunctionalInterface
    interface Handler {
        HttpResponse handle(HttpRequestHead request) throws InterruptedException;
    }

    /**
     * The bounds the loop enforces.
     *
     * @param maxConnections connections held at once
     * @param maxHeadBytes   the largest request head read
     * @param headTimeout    from acceptance until the head must be complete
     * @param writeTimeout   from the response until the client must have taken all of it
     * @param lingerTimeout  how long input is discarded after the response before closing
     * @param workers        worker threads
     */
    record Limits(int maxConnections, int maxHeadBytes, Duration headTimeout, Duration writeTimeout,
                  Duration lingerTimeout, int workers) {
    }

    private enum State { READING, HANDLING, WRITING, LINGERING }

    /** One accepted connection; touched only by the loop thread, except that workers hand back responses. */
    private static final class Connection {
        final SocketChannel channel;
        final SelectionKey key;
        State state = State.READING;
        long deadlineNanos;
        ByteBuffer head;
        ByteBuffer[] response;
        int discarded;

        Connection(SocketChannel channel, SelectionKey key, long deadlineNanos) {
            this.channel = channel;
            this.key = key;
            this.deadlineNanos = deadlineNanos;
        }
    }

    private record Answer(Connection connection, HttpResponse response) {
    }

    private final Limits limits;
    private final Handler handler;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final SelectionKey acceptKey;
    private final ThreadPoolExecutor workers;
    private final Thread loopThread;
    /** Oldest first. */
    private final LinkedHashSet<Connection> connections = new LinkedHashSet<>();
    /** Responses from workers; at most one per connection being handled. */
    private final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final ByteBuffer discard = ByteBuffer.allocate(4096);
    private volatile boolean closed;
    private long acceptPausedUntil;

    private HttpConnectionLoop(Limits limits, Handler handler, Selector selector, ServerSocketChannel server)
            throws IOException {
        this.limits = limits;
        this.handler = handler;
        this.selector = selector;
        this.server = server;
        this.acceptKey = server.register(selector, SelectionKey.OP_ACCEPT);
        AtomicInteger workerNumber = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(limits.workers(), limits.workers(), 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(limits.maxConnections()),
                r -> daemon(r, "mixflame-http-worker-" + workerNumber.incrementAndGet()));
        this.workers.allowCoreThreadTimeOut(true);
        this.loopThread = daemon(this::run, "mixflame-http-loop");
    }

    /**
     * Binds the address and starts the loop thread.
     *
     * @throws IOException when the address cannot be resolved or bound
     */
    static HttpConnectionLoop start(InetSocketAddress address, Limits limits, Handler handler) throws IOException {
        if (address.isUnresolved()) {
            throw new IOException("cannot resolve " + address.getHostString());
        }
        Selector selector = Selector.open();
        ServerSocketChannel server = null;
        try {
            server = ServerSocketChannel.open();
            server.bind(address, 64);
            server.configureBlocking(false);
            HttpConnectionLoop loop = new HttpConnectionLoop(limits, handler, selector, server);
            loop.loopThread.start();
            return loop;
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            selector.close();
            throw e;
        }
    }

    /** The address bound (with the actual port when port 0 was asked for). */
    InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the server socket is closed", e);
        }
    }

    /** Stops accepting, drops every connection, interrupts the workers; returns within about a second. */
    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        workers.shutdownNow();
        if (Thread.currentThread() != loopThread) {
            try {
                loopThread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private void run() {
        try {
            while (!closed) {
                selector.select(this::ready, selectMillis());
                takeAnswers();
                expire();
            }
        } catch (IOException | RuntimeException e) {
            // Not expected (each connection's failures are caught where they happen): stop serving, say why once.
            LOG.warn("the HTTP server stopped: {}", e.toString());
        } finally {
            for (Connection c : connections) {
                closeQuietly(c.channel);
            }
            connections.clear();
            closeQuietly(server);
            try {
                selector.close();
            } catch (IOException e) {
                LOG.debug("closing the selector: {}", e.toString());
            }
            workers.shutdownNow();
        }
    }

    /** Until the earliest deadline, at most a second, at least a millisecond. */
    private long selectMillis() {
        long now = System.nanoTime();
        long earliest = now + TimeUnit.MILLISECONDS.toNanos(MAX_SELECT_MILLIS);
        for (Connection c : connections) {
            if (c.state != State.HANDLING && c.deadlineNanos - earliest < 0) {
                earliest = c.deadlineNanos;
            }
        }
        if (acceptPausedUntil != 0 && acceptPausedUntil - earliest < 0) {
            earliest = acceptPausedUntil;
        }
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(earliest - now));
    }

    private void ready(SelectionKey key) {
        if (key == acceptKey) {
            accept();
            return;
        }
        Connection c = (Connection) key.attachment();
        try {
            if (key.isValid() && key.isReadable()) {
                if (c.state == State.READING) {
                    read(c);
                } else if (c.state == State.LINGERING) {
                    discard(c);
                }
            }
            if (key.isValid() && key.isWritable() && c.state == State.WRITING) {
                write(c);
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("HTTP connection dropped: {}", e.toString());
            drop(c);
        }
    }

    private void accept() {
        while (true) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                // Typically out of file descriptors: stop accepting for a moment rather than spin.
                LOG.debug("accept failed: {}", e.toString());
                acceptKey.interestOps(0);
                acceptPausedUntil = System.nanoTime() + ACCEPT_PAUSE_NANOS;
                return;
            }
            if (channel == null) {
                return;
            }
            if (connections.size() >= limits.maxConnections() && !dropOneUnfinished()) {
                closeQuietly(channel);
                continue;
            }
            try {
                channel.configureBlocking(false);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                Connection c = new Connection(channel, key, System.nanoTime() + limits.headTimeout().toNanos());
                key.attach(c);
                connections.add(c);
            } catch (IOException e) {
                closeQuietly(channel);
            }
        }
    }

    /** Drops the oldest connection already answered, else the oldest still sending its head; false if none. */
    private boolean dropOneUnfinished() {
        Connection victim = null;
        for (Connection c : connections) {
            if (c.state == State.LINGERING) {
                victim = c;
                break;
            }
            if (c.state == State.READING && victim == null) {
                victim = c;
            }
        }
        if (victim == null) {
            return false;
        }
        drop(victim);
        return true;
    }

    private void read(Connection c) throws IOException {
        if (c.head == null) {
            c.head = ByteBuffer.allocate(limits.maxHeadBytes());
        }
        int before = c.head.position();
        if (c.channel.read(c.head) < 0) {
            drop(c); // The client gave up before finishing its request.
            return;
        }
        int end = HttpRequestHead.endOfHead(c.head.array(), before, c.head.position());
        if (end < 0) {
            if (!c.head.hasRemaining()) {
                respond(c, HttpResponse.text(431, "the request head exceeds " + limits.maxHeadBytes() + " bytes\n"));
            }
            return;
        }
        HttpRequestHead request;
        try {
            request = HttpRequestHead.parse(c.head.array(), end);
        } catch (HttpRequestHead.BadRequest e) {
            respond(c, HttpResponse.text(e.status(), e.getMessage() + "\n"));
            return;
        }
        c.head = null;
        c.state = State.HANDLING;
        c.key.interestOps(0);
        try {
            workers.execute(() -> answer(c, handle(request)));
        } catch (RejectedExecutionException e) {
            respond(c, HttpResponse.text(503, "too busy; try again later\n"));
        }
    }

    private HttpResponse handle(HttpRequestHead request) {
        try {
            return handler.handle(request);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HttpResponse.text(503, "the server is stopping\n");
        } catch (RuntimeException e) {
            LOG.debug("HTTP request {} {} failed", request.method(), request.target(), e);
            return HttpResponse.text(500, "internal error: " + e.getClass().getSimpleName() + "\n");
        }
    }

    /** From a worker: queues the response for the loop thread. */
    private void answer(Connection c, HttpResponse response) {
        if (closed) {
            return;
        }
        answers.add(new Answer(c, response));
        selector.wakeup();
    }

    private void takeAnswers() {
        for (Answer a; (a = answers.poll()) != null; ) {
            Connection c = a.connection();
            if (c.state == State.HANDLING && connections.contains(c)) {
                try {
                    respond(c, a.response());
                } catch (IOException | RuntimeException e) {
                    LOG.debug("HTTP response not sent: {}", e.toString());
                    drop(c);
                }
            }
        }
    }

    private void respond(Connection c, HttpResponse response) throws IOException {
        c.head = null;
        c.response = response.encode();
        c.state = State.WRITING;
        c.deadlineNanos = System.nanoTime() + limits.writeTimeout().toNanos();
        c.key.interestOps(SelectionKey.OP_WRITE);
        write(c);
    }

    private void write(Connection c) throws IOException {
        c.channel.write(c.response);
        if (c.response[c.response.length - 1].hasRemaining()) {
            return;
        }
        c.response = null;
        c.channel.shutdownOutput();
        c.state = State.LINGERING;
        c.deadlineNanos = System.nanoTime() + limits.lingerTimeout().toNanos();
        c.key.interestOps(SelectionKey.OP_READ);
    }

    private void discard(Connection c) throws IOException {
        discard.clear();
        int n = c.channel.read(discard);
        if (n < 0) {
            finish(c);
        } else if ((c.discarded += n) > MAX_DISCARDED_BYTES) {
            drop(c);
        }
    }

    private void expire() {
        long now = System.nanoTime();
        if (acceptPausedUntil != 0 && now - acceptPausedUntil >= 0) {
            acceptPausedUntil = 0;
            acceptKey.interestOps(SelectionKey.OP_ACCEPT);
        }
        List<Connection> late = new ArrayList<>();
        for (Connection c : connections) {
            if (c.state != State.HANDLING && now - c.deadlineNanos >= 0) {
                late.add(c);
            }
        }
        for (Connection c : late) {
            if (c.state == State.READING) {
                try {
                    respond(c, HttpResponse.text(408, "the request head took longer than "
                            + limits.headTimeout().toMillis() + " ms\n"));
                } catch (IOException | RuntimeException e) {
                    drop(c);
                }
            } else if (c.state == State.LINGERING) {
                finish(c);
            } else {
                drop(c);
            }
        }
    }

    /** Closes a connection that is done: what the server sent is still delivered. */
    private void finish(Connection c) {
        connections.remove(c);
        c.key.cancel();
        closeQuietly(c.channel);
    }

    /**
     * Aborts a connection (reset): the kernel discards what the client has not taken, so a client that stopped
     * reading holds no buffers either.
     */
    private void drop(Connection c) {
        try {
            c.channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException | RuntimeException e) {
            LOG.debug("SO_LINGER: {}", e.toString());
        }
        finish(c);
    }

    private static void closeQuietly(Closeable channel) {
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("closing an HTTP channel: {}", e.toString());
        }
    }
}
