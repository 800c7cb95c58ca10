package io.mixflame.capture.nativecode;

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
 * mixflame's own native library ({@code src/main/native}: the in-thread timer's signal handler, the perf rings'
 * relay), built for the build's own Linux architecture and shipped in the jar under the JVM's name for it
 * ({@code linux-<os.arch>}): copied once into the host's cache directory under a name made of its checksum (a
 * temporary file where that directory cannot be written), then bound by JNA's direct mapping, a class of calls at a
 * time. Loaded at the first bind, never per sample.
 */
public final class MixflameNativeLibrary {
    static final String RESOURCE = "linux-" + HostArchitecture.osArch() + "/libmixflame-native.so";
    /** The library is a few tens of kilobytes; a resource far larger is not it. */
    private static final int MAX_BYTES = 1 << 20;

    private static String loadFailure;
    private static NativeLibrary library;

    private MixflameNativeLibrary() {
    }

    /**
     * Binds the native methods of {@code calls} to the library, loading it first if need be.
     *
     * @return null when bound, else why it cannot be, in one line
     */
    public static synchronized String bind(Class<?> calls) {
        String failure = load();
        if (failure != null) {
            return failure;
        }
        try {
            Native.register(calls, library);
            return null;
        } catch (RuntimeException | LinkageError e) {
            return "mixflame's native library's calls could not be bound: " + e;
        }
    }

    private static String load() {
        if (library != null) {
            return null;
        }
        if (loadFailure != null) {
            return loadFailure;
        }
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            loadFailure = "mixflame's native library is built for Linux only";
            return loadFailure;
        }
        String unsupported = HostArchitecture.unsupportedReason();
        if (unsupported != null) {
            loadFailure = "mixflame's native library cannot be used: " + unsupported;
            return loadFailure;
        }
        try {
            library = NativeLibrary.getInstance(copy(read()).toString());
            return null;
        } catch (IOException | RuntimeException | LinkageError e) {
            loadFailure = "mixflame's native library could not be loaded: " + e;
            return loadFailure;
        }
    }

    private static byte[] read() throws IOException {
        try (InputStream in = MixflameNativeLibrary.class.getResourceAsStream(RESOURCE)) {
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
        String name = "libmixflame-native-" + Long.toHexString(crc.getValue()) + "-" + bytes.length + ".so";
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
        Path temporary = Files.createTempFile("libmixflame-native-", ".so");
        Files.write(temporary, bytes);
        temporary.toFile().deleteOnExit();
        return temporary;
    }

}
