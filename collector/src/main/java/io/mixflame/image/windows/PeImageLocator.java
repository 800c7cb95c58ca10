package io.mixflame.image.windows;

import io.mixflame.image.ModuleCache;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.pe.PeFile;
import io.mixflame.process.ProcessMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what the image of a module loaded in a Windows process is read from. Its file, normally: Windows maps the
 * file it names. Wine may not: where a program's directory holds a native DLL that Wine also builds in (the
 * {@code ucrtbase.dll} in a JRE's {@code bin}), Wine maps its builtin DLL but names the native file, whose
 * {@code .pdata} describes other code, so that unwinding by it reads garbage. The file is therefore used only when its
 * headers show the build the process's memory holds (link stamp, size of image, checksum, from the loaded headers);
 * otherwise, or when the file cannot be read, the image is read from the process's memory as loaded. Decisions are
 * remembered per module load.
 */
public final class PeImageLocator {
    private static final Logger LOG = LoggerFactory.getLogger(PeImageLocator.class);
    private static final int PAGE = 4096;
    /** Larger "images" are taken for a corrupted module list: none is read. */
    private static final long MAX_LOADED_IMAGE = 256L << 20;
    private static final int MAX_REMEMBERED = 2048;

    private final long pid;
    private final ProcessMemory memory;
    private final ModuleCache cache;
    private final DebugSymbolSource debugSymbols;
    private final Map<String, ModuleImage> decided = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ModuleImage> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };

    /**
     * @param pid    the process
     * @param memory a reader of its memory for this locator alone (a reader serves one thread at a time)
     * @param cache  where images are shared
     * @param debugSymbols names what an image read from its file does not export
     */
    public PeImageLocator(long pid, ProcessMemory memory, ModuleCache cache, DebugSymbolSource debugSymbols) {
        this.pid = pid;
        this.memory = memory;
        this.cache = cache;
        this.debugSymbols = debugSymbols;
    }

    /**
     * The image of the module loaded at {@code base}, {@code size} bytes long, from the file at {@code path} (as the
     * profiler's system reaches it).
     */
    public synchronized ModuleImage imageOf(String path, long base, long size) {
        String key = path + '\0' + base + '\0' + size;
        ModuleImage known = decided.get(key);
        if (known == null) {
            known = locate(path, base, size);
            decided.put(key, known);
        }
        return known;
    }

    private ModuleImage locate(String path, long base, long size) {
        PeFile loaded = headers(base);
        if (loaded == null || size <= 0 || size > MAX_LOADED_IMAGE || fileHolds(path, loaded)) {
            // Without the loaded headers nothing says the file is wrong, and the loaded image could not be read.
            return cache.file(path, base, () -> new PeModuleImage(path, debugSymbols));
        }
        LOG.debug("{} is not the image loaded at 0x{} in process {}: the loaded image is read instead", path,
                Long.toHexString(base), pid);
        byte[] image = readLoaded(base, (int) size);
        return cache.memory(pid + ":" + base + ":" + path,
                () -> new PeModuleImage(path, () -> PeFile.parseLoaded(ByteBuffer.wrap(image))));
    }

    /** The headers loaded at {@code base}, or null when they cannot be read or are no PE headers. */
    private PeFile headers(long base) {
        byte[] page = new byte[PAGE];
        if (!memory.readFully(base, page, 0, PAGE)) {
            return null;
        }
        try {
            return PeFile.parseLoaded(ByteBuffer.wrap(page));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether the file at {@code path} is the build whose headers were loaded. */
    private static boolean fileHolds(String path, PeFile loaded) {
        ByteBuffer page = ByteBuffer.allocate(PAGE);
        try (FileChannel channel = FileChannel.open(Path.of(path), StandardOpenOption.READ)) {
            while (page.hasRemaining() && channel.read(page) > 0) {
                // a file shorter than a page is read whole
            }
            // The headers lie at the image's start in a file as when loaded; only they are compared.
            return PeFile.parseLoaded(page.flip()).isSameBuildAs(loaded);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The loaded image's bytes; a page that cannot be read is left zero. */
    private byte[] readLoaded(long base, int size) {
        byte[] bytes = new byte[size];
        int at = 0;
        while (at < size) {
            at += memory.read(base + at, bytes, at, size - at);
            if (at < size) {
                at = (at / PAGE + 1) * PAGE;
            }
        }
        return bytes;
    }
}
