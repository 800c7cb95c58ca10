package io.mixflame.capture.timer;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import io.mixflame.capture.HostArchitecture;
import io.mixflame.image.index.ModuleIndexStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The native part of the in-thread capture ({@code src/main/native/thread_timer.c}), built for the build's own Linux
 * architecture and shipped in the jar under the JVM's name for it ({@code linux-<os.arch>}): copied once into the
 * host's cache directory under a name made of its checksum (a temporary file where that directory cannot be
 * written), then bound by JNA's direct mapping. Its four calls run when the
 * capture starts, stops, and a thread starts or ends, never per sample.
 */
final class ThreadTimerLibrary {
    static final String RESOURCE = "linux-" + HostArchitecture.osArch() + "/libmixflame-timer.so";
    /** The library is a few kilobytes; a resource far larger is not it. */
    private static final int MAX_BYTES = 1 << 20;

    private static volatile String loadFailure;
    private static volatile boolean loaded;

    private ThreadTimerLibrary() {
    }

    /**
     * Loads and binds the library once.
     *
     * @return null when bound, else why it cannot be, in one line
     */
    static synchronized String load() {
        if (loaded) {
            return null;
        }
        if (loadFailure != null) {
            return loadFailure;
        }
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            loadFailure = "the in-thread timer is built for Linux only";
            return loadFailure;
        }
        String unsupported = HostArchitecture.unsupportedReason();
        if (unsupported != null) {
            loadFailure = "the in-thread timer cannot sample: " + unsupported;
            return loadFailure;
        }
        try {
            byte[] bytes = read();
            Path file = copy(bytes);
            Native.register(Calls.class, NativeLibrary.getInstance(file.toString()));
            loaded = true;
            return null;
        } catch (IOException | RuntimeException | LinkageError e) {
            loadFailure = "the in-thread timer's library could not be loaded: " + e;
            return loadFailure;
        }
    }

    private static byte[] read() throws IOException {
        try (InputStream in = ThreadTimerLibrary.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IOException(RESOURCE + " is not in the jar (built without gcc?)");
            }
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new IOException(RESOURCE + " is larger than " + MAX_BYTES + " bytes");
            }
            return bytes;
        }
    }

    /** The library as a file: the cached copy when it holds these bytes, else a new copy. */
    private static Path copy(byte[] bytes) throws IOException {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        String name = "libmixflame-timer-" + Long.toHexString(crc.getValue()) + "-" + bytes.length + ".so";
        ModuleIndexStore store = ModuleIndexStore.shared();
        if (store.enabled()) {
            try {
                Path dir = store.directory();
                Path cached = dir.resolve(name);
                if (Files.isRegularFile(cached) && Arrays.equals(Files.readAllBytes(cached), bytes)) {
                    return cached;
                }
                Files.createDirectories(dir);
                Path partial = Files.createTempFile(dir, name, ".part");
                Files.write(partial, bytes);
                return Files.move(partial, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException | RuntimeException e) {
                // A read-only or foreign directory: a temporary copy below.
            }
        }
        Path temporary = Files.createTempFile("libmixflame-timer-", ".so");
        Files.write(temporary, bytes);
        temporary.toFile().deleteOnExit();
        return temporary;
    }

    /** The library's calls, as {@code thread_timer.c} declares them. */
    static final class Calls {
        private Calls() {
        }

        /** Maps the ring and installs the handler: the ring's address, or -errno. */
        static native long mixflame_timer_install(int signal, long capacity, long intervalNanos);

        /** Restores the handler that was there: 0, 1 when the ring was left mapped, or -errno. */
        static native int mixflame_timer_uninstall(int waitMillis);

        /** A timer on a thread's CPU clock, its signal naming its region slot (0: none): its id, or -errno. */
        static native int mixflame_timer_create(int tid, long intervalNanos, int stackBytes, int slot);

        /** Signals each of {@code n} threads whose timer is past its expiry unseen: how many were signalled. */
        static native int mixflame_timer_nudge_overdue(int[] timers, int[] tids, int[] stackBytes, int[] slots, int n);

        /** Deletes a timer: 0 or -errno. */
        static native int mixflame_timer_delete(int timer);
    }
}
