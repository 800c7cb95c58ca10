package io.mixflame.examples.windows;

import io.mixflame.image.pe.LoadedPeImage;
import io.mixflame.image.pe.LoadedPeImages;
import io.mixflame.image.pe.PeExport;
import io.mixflame.image.pe.PeExports;
import io.mixflame.image.pe.PeFile;
import io.mixflame.image.pe.PeFormatException;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import io.mixflame.process.MemoryReadException;
import io.mixflame.unwind.pe.UnwindMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The dumped process as mixflame's walker sees it: each module's image read from its file on disk (the files Wine
 * mapped: Wine's builtin DLLs in system32 are PE files too), placed at the base the dump gives, and a thread's
 * memory made of its stack copy and those images. The images are read in their file layout and every code read
 * is translated from RVA through the section table, which gives the loaded bytes exactly except where the loader
 * applied relocations; none of the code shapes the unwinder decodes (epilogs) holds a relocated address.
 */
final class DumpedProcess {
    private final PeStackDump dump;
    private final LoadedPeImages images;
    private final Map<LoadedPeImage, PeFile> files = new HashMap<>();
    private final Map<LoadedPeImage, PeExports> exports = new HashMap<>();

    /**
     * @param windowsToLinux where a module's Windows path lies on this machine
     * @throws IllegalStateException if a module's file is not the image that was loaded (its size of image differs)
     */
    DumpedProcess(PeStackDump dump, Function<String, Path> windowsToLinux) throws IOException {
        this.dump = dump;
        List<LoadedPeImage> loaded = new ArrayList<>();
        for (PeStackDump.Module m : dump.modules()) {
            Path file = windowsToLinux.apply(m.windowsPath());
            PeFile pe = PeFile.parse(ByteBuffer.wrap(Files.readAllBytes(file)));
            if (pe.sizeOfImage() != m.size()) {
                throw new IllegalStateException(file + " has size of image 0x" + Long.toHexString(pe.sizeOfImage())
                        + " but " + m.windowsPath() + " was loaded with 0x" + Long.toHexString(m.size()));
            }
            LoadedPeImage image = new LoadedPeImage(m.fileName(), m.base(), m.size(), PeUnwindTable.read(pe));
            loaded.add(image);
            files.put(image, pe);
            exports.put(image, PeExports.read(pe));
        }
        this.images = new LoadedPeImages(loaded);
    }

    LoadedPeImages images() {
        return images;
    }

    /**
     * A pc's name: {@code module!function}, the function being one of the program's own (from the dump's symbols)
     * or the nearest export at or below the pc; {@code module!?} when neither fits, {@code ?} outside every module.
     */
    String name(long pc) {
        Optional<LoadedPeImage> found = images.at(pc);
        if (found.isEmpty()) {
            return "?";
        }
        LoadedPeImage image = found.get();
        String own = ownFunction(image, pc);
        if (own != null) {
            return image.name() + "!" + own;
        }
        return image.name() + "!" + exports.get(image).nearestAtOrBelow(pc - image.base()).map(PeExport::name)
                .orElse("?");
    }

    /**
     * The program's function holding a pc: the nearest symbol at or below it, if that symbol starts the pc's
     * RUNTIME_FUNCTION (or the pc has none, as in the hand-written leaf).
     */
    private String ownFunction(LoadedPeImage image, long pc) {
        String best = null;
        long bestAddress = 0;
        for (Map.Entry<String, Long> s : dump.symbols().entrySet()) {
            long address = s.getValue();
            if (image.contains(address) && address <= pc && (best == null || address > bestAddress)) {
                best = s.getKey();
                bestAddress = address;
            }
        }
        if (best == null) {
            return null;
        }
        Optional<RuntimeFunction> function = image.unwindTable().find(pc - image.base());
        return function.isEmpty() || function.get().begin() == bestAddress - image.base() ? best : null;
    }

    /** A thread's memory: its stack as the copy in {@code stack} (maybe altered by a test), then the images. */
    UnwindMemory memory(long stackStart, byte[] stack) {
        return address -> {
            long offset = address - stackStart;
            if (offset >= 0 && offset + 8 <= stack.length) {
                return ByteBuffer.wrap(stack).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong((int) offset);
            }
            Optional<LoadedPeImage> found = images.at(address);
            if (found.isEmpty() || !found.get().contains(address + 7)) {
                throw new MemoryReadException(address);
            }
            PeFile file = files.get(found.get());
            long rva = address - found.get().base();
            try {
                long value = 0;
                for (int i = 7; i >= 0; i--) {
                    value = value << 8 | file.u8(rva + i);
                }
                return value;
            } catch (PeFormatException e) {
                throw new MemoryReadException(address);
            }
        };
    }
}
