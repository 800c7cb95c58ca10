package io.mixflame.engine.linux;

import com.sun.jna.JNIEnv;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.mixflame.capture.nativecode.MixflameNativeLibrary;
import io.mixflame.engine.ThreadLifeNames;
import io.mixflame.hotspot.ModifiedUtf8;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's own telling of its threads' names as they start and end ({@code src/main/native/thread_names.c}): a JVM TI
 * environment of mixflame's with the thread start and end events on, each run by the thread itself, which writes its
 * id and name into a bounded native buffer that this class empties. For the profiler's own process only.
 */
public final class JvmtiThreadLifeNames implements ThreadLifeNames {
    private static final Logger LOG = LoggerFactory.getLogger(JvmtiThreadLifeNames.class);
    /** The native buffer: about 12 000 names of 30 characters, seconds of the busiest thread pools' churn. */
    static final int BUFFER_BYTES = 512 * 1024;
    /** What one take moves at most: far more than the longest record (24 + 1 024 bytes). */
    private static final int TAKE_BYTES = 64 * 1024;
    private static final int HEADER_BYTES = 24;
    /** A record's kind, as {@code thread_names.c} writes it: told at the thread's end (else at its start). */
    private static final byte KIND_END = 2;

    private static boolean bound;
    private static String failure;
    /** One profile at a time takes the names: a second would take half of them. */
    private static boolean open;

    private final Memory taken = new Memory(TAKE_BYTES);
    private final AtomicBoolean taking = new AtomicBoolean();
    private final byte[] bytes = new byte[TAKE_BYTES];
    /** The records' header fields, read as {@code thread_names.c} writes them (the machine's order). */
    private final ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
    private volatile boolean closed;

    private JvmtiThreadLifeNames() {
    }

    /**
     * Turns the telling on; null where it cannot be (why is logged at debug level) or another profile has it.
     */
    public static synchronized ThreadLifeNames open() {
        if (open) {
            LOG.debug("threads' names are told to another profile: this one reads the JVM's list");
            return null;
        }
        String why = bind();
        if (why == null) {
            int installed = Calls.mixflame_names_install(JNIEnv.CURRENT, BUFFER_BYTES);
            int enabled = installed == 0 ? Calls.mixflame_names_enable(1) : installed;
            if (enabled == 0) {
                open = true;
                return new JvmtiThreadLifeNames();
            }
            why = "the JVM's thread events could not be had: error " + enabled;
        }
        LOG.debug("threads' names are read from the JVM's list only: {}", why);
        return null;
    }

    private static String bind() {
        if (!bound && failure == null) {
            failure = MixflameNativeLibrary.bind(Calls.class);
            bound = failure == null;
        }
        return failure;
    }

    @Override
    public int take(Listener listener) {
        if (closed || !taking.compareAndSet(false, true)) {
            // Another thread is taking: it records what it takes, in order.
            return 0;
        }
        try {
            int count = 0;
            int n;
            while (!closed && (n = Calls.mixflame_names_take(Pointer.nativeValue(taken), TAKE_BYTES)) > 0) {
                taken.read(0, bytes, 0, n);
                count += visit(n, listener);
            }
            return count;
        } finally {
            taking.set(false);
        }
    }

    private int visit(int length, Listener listener) {
        int count = 0;
        for (int at = 0; at + HEADER_BYTES <= length; ) {
            int tid = header.getInt(at);
            int nameBytes = header.getShort(at + 4) & 0xffff;
            boolean ended = bytes[at + 6] == KIND_END;
            if (at + HEADER_BYTES + nameBytes > length) {
                break;
            }
            String name = ModifiedUtf8.decodeText(bytes, at + HEADER_BYTES, nameBytes);
            long low = header.getLong(at + 8);
            long high = header.getLong(at + 16);
            if (tid > 0 && !ended && low != 0 && Long.compareUnsigned(low, high) < 0) {
                listener.stack(tid, low, high);
            }
            if (tid > 0 && name != null) {
                listener.told(tid, name, ended);
                count++;
            }
            at += HEADER_BYTES + ((nameBytes + 7) & ~7);
        }
        return count;
    }

    @Override
    public long dropped() {
        return Calls.mixflame_names_count(1);
    }

    @Override
    public long told() {
        return Calls.mixflame_names_count(0);
    }

    @Override
    public void close() {
        synchronized (JvmtiThreadLifeNames.class) {
            if (!closed) {
                closed = true;
                Calls.mixflame_names_enable(0);
                open = false;
            }
        }
    }

    /** The library's calls, as {@code thread_names.c} declares them; none per sample. */
    static final class Calls {
        private Calls() {
        }

        /** JNA passes the calling thread's JNI environment for {@link JNIEnv#CURRENT}. */
        static native int mixflame_names_install(JNIEnv jni, int bytes);

        static native int mixflame_names_enable(int on);

        static native int mixflame_names_take(long out, int size);

        static native long mixflame_names_count(int which);
    }
}
