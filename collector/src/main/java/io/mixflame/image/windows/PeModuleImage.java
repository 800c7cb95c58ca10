package io.mixflame.image.windows;

import io.mixflame.image.ExportedSymbols;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.StableModuleName;
import io.mixflame.image.SymbolTable;
import io.mixflame.image.SymbolTableBuilder;
import io.mixflame.image.UnwindData;
import io.mixflame.image.pe.PeCodeViewId;
import io.mixflame.image.pe.PeExport;
import io.mixflame.image.pe.PeExports;
import io.mixflame.image.pe.PeFile;
import io.mixflame.image.pe.PeUnwindTable;
import io.mixflame.image.pe.RuntimeFunction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Windows module image: one PE image (its file, mapped read-only, or the image as loaded, read from a process), with
 * its functions named by its debug information where a {@link DebugSymbolSource} finds some and by its exports
 * (a module without debug information names nothing else), its exports for HotSpot's
 * tables, and its {@code .pdata} unwind table. Addresses are RVAs: the bias of a loaded module is its base address.
 * Each part is read on first use; an image that cannot be read has none and one log line, and never fails a walk.
 */
public final class PeModuleImage implements ModuleImage {
    private static final Logger LOG = LoggerFactory.getLogger(PeModuleImage.class);

    /** Where the image's bytes come from: its file, or a process's memory. */
    @FunctionalInterface
    public interface PeSource {
        PeFile open() throws Exception;
    }

    private final String path;
    private final String fileName;
    /** Set at once unless the file name has a random part; then on first use, from the export directory's name. */
    private volatile String name;
    private volatile String buildId;
    private final PeSource source;
    private final DebugSymbolSource debugSymbols;
    private PeFile file;
    private boolean failed;
    private PeExports exports;
    private SymbolTable symbols;
    private UnwindData unwind;

    /** The image of the file at {@code path} (a path of the system the profiler runs on). */
    public PeModuleImage(String path) {
        this(path, () -> map(path), DebugSymbolSource.NONE);
    }

    /** The image of the file at {@code path}, its unexported functions named from {@code debugSymbols}. */
    public PeModuleImage(String path, DebugSymbolSource debugSymbols) {
        this(path, () -> map(path), debugSymbols);
    }

    /**
     * @param path   the module's file, as its process names it
     * @param source opens the image when something of it is first asked for
     */
    public PeModuleImage(String path, PeSource source) {
        this(path, source, DebugSymbolSource.NONE);
    }

    /**
     * @param path         the module's file, as its process names it
     * @param source       opens the image when something of it is first asked for
     * @param debugSymbols names what the image does not export
     */
    public PeModuleImage(String path, PeSource source, DebugSymbolSource debugSymbols) {
        this.path = path;
        this.source = source;
        this.debugSymbols = debugSymbols;
        int slash = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
        this.fileName = path.substring(slash + 1);
        this.name = StableModuleName.hasRandomPart(fileName) ? null : fileName;
    }

    /** The file at {@code path}, mapped read-only. */
    public static PeFile map(String path) throws IOException {
        try (FileChannel channel = FileChannel.open(Path.of(path), StandardOpenOption.READ)) {
            return PeFile.parse(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()));
        }
    }

    @Override
    public String name() {
        String n = name;
        if (n == null) {
            PeExports e = peExports();
            n = StableModuleName.of(fileName, e == null ? null : e.ownName().orElse(null));
            name = n;
        }
        return n;
    }

    /** The CodeView GUID and age, as symbol servers key the image's PDB; empty without a CodeView record. */
    @Override
    public String buildId() {
        String id = buildId;
        if (id == null) {
            PeFile f = file();
            try {
                id = f == null ? "" : PeCodeViewId.read(f).orElse("");
            } catch (RuntimeException e) {
                // A malformed debug directory costs the build id and nothing else.
                id = "";
            }
            buildId = id;
        }
        return id;
    }

    @Override
    public String path() {
        return path;
    }

    private synchronized PeFile file() {
        if (file == null && !failed) {
            try {
                file = source.open();
            } catch (Exception e) {
                failed = true;
                LOG.debug("{} gets no symbols or unwind data: {}", path, e.getMessage());
            }
        }
        return file;
    }

    private synchronized PeExports peExports() {
        if (exports == null) {
            PeFile f = file();
            try {
                exports = f == null ? null : PeExports.read(f);
            } catch (RuntimeException e) {
                LOG.warn("exports of {} are malformed: {}", path, e.getMessage());
            }
        }
        return exports;
    }

    @Override
    public synchronized SymbolTable symbols() {
        if (symbols == null) {
            PeExports e = peExports();
            PeFile f = file();
            symbols = e == null ? SymbolTable.EMPTY : table(e, unwindData(), debugFunctions(f));
        }
        return symbols;
    }

    /**
     * The exports as a symbol table, their names packed into one string table. An export is sized by the
     * RUNTIME_FUNCTION that begins at it; one outside every function (a leaf, such as ntdll's system call stubs)
     * reaches to the next function. A module exports few of its functions, and without sizes every unexported
     * function would take the name of the export below it (jvm.dll's code would be all
     * {@code AsyncGetCallTrace+0x...}); with them, such code is named by module and offset.
     */
    private static SymbolTable table(PeExports exports, UnwindData unwind, DebugFunctions debug) {
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        names.writeBytes(debug.names.toByteArray());
        SymbolTableBuilder builder = new SymbolTableBuilder();
        long[] offsets = new long[exports.size()];
        int i = 0;
        for (PeExport e : exports.all()) {
            offsets[i++] = names.size();
            names.writeBytes(e.name().getBytes(StandardCharsets.UTF_8));
            names.write(0);
        }
        int table = builder.strings(ByteBuffer.wrap(names.toByteArray()));
        // Debug information first: where it and an export name the same address, its name wins.
        for (int k = 0; k < debug.count; k++) {
            long size = debug.sizes[k] > 0 ? debug.sizes[k] : sizeByUnwindData(debug.rvas[k], unwind);
            builder.add(debug.rvas[k], size, table, debug.nameOffsets[k], false);
        }
        i = 0;
        for (PeExport e : exports.all()) {
            builder.add(e.rva(), sizeByUnwindData(e.rva(), unwind), table, offsets[i++], false);
        }
        return builder.build();
    }

    /** The size of the function at {@code rva} by its RUNTIME_FUNCTION, or to the next one for a leaf; 0 unknown. */
    private static long sizeByUnwindData(long rva, UnwindData unwind) {
        if (!(unwind instanceof PeUnwindTable functions)) {
            return 0;
        }
        RuntimeFunction f = functions.find(rva).orElse(null);
        if (f != null) {
            // Inside a function but not at its start: data, or an alias; its first byte only.
            return f.begin() == rva ? f.end() - f.begin() : 1;
        }
        long next = functions.nextBegin(rva);
        return next < 0 ? 0 : next - rva;
    }

    /** Functions named by debug information: RVAs, sizes, and names packed into one NUL-separated block. */
    private static final class DebugFunctions implements DebugSymbolSource.Sink {
        final ByteArrayOutputStream names = new ByteArrayOutputStream();
        long[] rvas = new long[0];
        long[] sizes = new long[0];
        long[] nameOffsets = new long[0];
        int count;

        @Override
        public void function(long rva, long size, String name) {
            if (count == rvas.length) {
                int n = Math.max(64, count * 2);
                rvas = Arrays.copyOf(rvas, n);
                sizes = Arrays.copyOf(sizes, n);
                nameOffsets = Arrays.copyOf(nameOffsets, n);
            }
            rvas[count] = rva;
            sizes[count] = size;
            nameOffsets[count] = names.size();
            names.writeBytes(name.getBytes(StandardCharsets.UTF_8));
            names.write(0);
            count++;
        }
    }

    private DebugFunctions debugFunctions(PeFile f) {
        DebugFunctions found = new DebugFunctions();
        if (f != null && debugSymbols != DebugSymbolSource.NONE) {
            try {
                debugSymbols.functionsOf(path, f.sizeOfImage(), found);
            } catch (RuntimeException e) {
                LOG.debug("no debug names for {}: {}", path, e.toString());
            }
            if (found.count > 0) {
                LOG.debug("{} functions of {} named by its debug information", found.count, path);
            }
        }
        return found;
    }

    @Override
    public ExportedSymbols exports() {
        PeExports e = peExports();
        if (e == null) {
            return ExportedSymbols.NONE;
        }
        return prefix -> {
            Map<String, Long> found = new HashMap<>();
            for (PeExport x : e.all()) {
                if (x.name().startsWith(prefix)) {
                    found.putIfAbsent(x.name(), x.rva());
                }
            }
            return found;
        };
    }

    @Override
    public synchronized UnwindData unwindData() {
        if (unwind == null) {
            PeFile f = file();
            try {
                unwind = f == null ? UnwindData.NONE : PeUnwindTable.read(f);
            } catch (RuntimeException e) {
                LOG.warn("unwind data of {} is malformed: {}", path, e.getMessage());
                unwind = UnwindData.NONE;
            }
        }
        return unwind;
    }

    /** Addresses are RVAs: the module's base is its bias. */
    @Override
    public long loadBias(long mappingStart, long fileOffset) {
        return mappingStart;
    }
}
