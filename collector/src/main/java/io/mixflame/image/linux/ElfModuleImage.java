package io.mixflame.image.linux;

import io.mixflame.image.ExportedSymbols;
import io.mixflame.image.ModuleImage;
import io.mixflame.image.StableModuleName;
import io.mixflame.image.SymbolTable;
import io.mixflame.image.UnwindData;
import io.mixflame.image.elf.ElfExportedSymbols;
import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfFormatException;
import io.mixflame.image.elf.ElfSegment;
import io.mixflame.image.index.ModuleIndexStore;
import io.mixflame.image.dwarf.CfiParser;
import io.mixflame.image.dwarf.CallFrameInfo;
import io.mixflame.image.dwarf.CfiTable;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Linux module image: one ELF file with its function symbols (and those of its separate debug file), its
 * exported symbols and its DWARF call frame information, each read once on first use. A file that cannot be parsed
 * gets none of them and one log line; it never fails a walk.
 */
public final class ElfModuleImage implements ModuleImage {
    private static final Logger LOG = LoggerFactory.getLogger(ElfModuleImage.class);

    private final String fileName;
    private final String path;
    /** Set at once unless the file name has a random part; then on first use, from the file's soname. */
    private volatile String name;
    private volatile String buildId;
    private final ElfSource source;
    private final IndexedSymbolTables symbolTables;
    private volatile ElfFile elf;
    private volatile boolean elfFailed;
    private volatile SymbolTable symbols;
    private volatile CallFrameInfo cfi;
    private volatile ExportedSymbols exports;

    /** Where the module's bytes come from: a file, or memory (the vDSO). */
    @FunctionalInterface
    public interface ElfSource {
        ElfFile open() throws Exception;
    }

    /**
     * An image whose symbols are always read from its file.
     *
     * @param path   the file's path, or a pseudo-name such as {@code [vdso]}
     * @param source opens the file when something of it is first asked for
     */
    public ElfModuleImage(String path, ElfSource source) {
        this(path, source, ModuleIndexStore.DISABLED);
    }

    /**
     * An image whose symbols come from the host's module index when it has them (and go there when it has not).
     *
     * @param path    the file's path, or a pseudo-name such as {@code [vdso]} (never indexed)
     * @param source  opens the file when something of it is first asked for
     * @param indexes where module indexes are read and written
     */
    public ElfModuleImage(String path, ElfSource source, ModuleIndexStore indexes) {
        this.path = path;
        this.fileName = path.substring(path.lastIndexOf('/') + 1);
        this.name = StableModuleName.hasRandomPart(fileName) ? null : fileName;
        this.source = source;
        this.symbolTables = new IndexedSymbolTables(indexes);
    }

    @Override
    public String name() {
        String n = name;
        if (n == null) {
            String soname;
            try {
                Optional<ElfFile> file = elf();
                soname = file.isPresent() ? file.get().soname().orElse(null) : null;
            } catch (RuntimeException e) {
                // A malformed dynamic section costs the soname: the file name without its random part stands in.
                soname = null;
            }
            n = StableModuleName.of(fileName, soname);
            name = n;
        }
        return n;
    }

    @Override
    public String buildId() {
        String id = buildId;
        if (id == null) {
            try {
                Optional<ElfFile> file = elf();
                Optional<byte[]> bytes = file.isPresent() ? file.get().buildId() : Optional.empty();
                id = bytes.isPresent() ? hex(bytes.get()) : "";
            } catch (RuntimeException e) {
                id = "";
            }
            buildId = id;
        }
        return id;
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }

    @Override
    public String path() {
        return path;
    }

    /** The parsed file, or empty when it could not be read. */
    public synchronized Optional<ElfFile> elf() {
        if (elf == null && !elfFailed) {
            try {
                elf = source.open();
            } catch (Exception e) {
                elfFailed = true;
                // Executable mappings of non-ELF or unreadable files (libffi's trampoline files, deleted files another
                // user cannot open) are normal: only damaged ELF files are worth a warning.
                if (!(e instanceof ElfFormatException) || "not an ELF file".equals(e.getMessage())) {
                    LOG.debug("{} gets no symbols: {}", path, e.getMessage());
                } else {
                    LOG.warn("cannot read {}: {}; it gets no symbols and no unwind information", path, e.getMessage());
                }
            }
        }
        return Optional.ofNullable(elf);
    }

    @Override
    public SymbolTable symbols() {
        SymbolTable s = symbols;
        if (s == null) {
            synchronized (this) {
                if (symbols == null) {
                    symbols = readSymbols();
                }
                s = symbols;
            }
        }
        return s;
    }

    @Override
    public UnwindData unwindData() {
        return cfi();
    }

    @Override
    public ExportedSymbols exports() {
        ExportedSymbols e = exports;
        if (e == null) {
            Optional<ElfFile> file = elf();
            e = file.isPresent() ? new ElfExportedSymbols(file.get()) : ExportedSymbols.NONE;
            exports = e;
        }
        return e;
    }

    /** The module's call frame information, interpreted on first use. */
    public CallFrameInfo cfi() {
        CallFrameInfo t = cfi;
        if (t == null) {
            synchronized (this) {
                if (cfi == null) {
                    cfi = readCfi();
                }
                t = cfi;
            }
        }
        return t;
    }

    /** From the segment that holds the mapping's file offset. */
    @Override
    public long loadBias(long mappingStart, long fileOffset) {
        Optional<ElfFile> file = elf();
        if (file.isEmpty()) {
            return mappingStart - fileOffset;
        }
        for (ElfSegment seg : file.get().segments()) {
            if (seg.type() == ElfSegment.PT_LOAD && (seg.offset() & ~0xfffL) <= fileOffset
                    && fileOffset < seg.offset() + Math.max(seg.fileSize(), 1)) {
                return mappingStart - (seg.vaddr() + fileOffset - seg.offset());
            }
        }
        return mappingStart - fileOffset;
    }

    private SymbolTable readSymbols() {
        Optional<ElfFile> file = elf();
        if (file.isEmpty()) {
            return SymbolTable.EMPTY;
        }
        try {
            return symbolTables.load(path, file.get(), DebugFiles.find(path, file.get()));
        } catch (RuntimeException e) {
            // ElfFormatException above all, but a corrupted file must cost its symbols and nothing else.
            LOG.warn("symbols of {} are malformed: {}", path, e.getMessage());
            return SymbolTable.EMPTY;
        }
    }

    private CallFrameInfo readCfi() {
        Optional<ElfFile> file = elf();
        if (file.isEmpty()) {
            return CfiTable.EMPTY;
        }
        try {
            return CfiParser.parse(file.get(), DebugFiles.find(path, file.get()));
        } catch (RuntimeException e) {
            LOG.warn("unwind information of {} is malformed: {}", path, e.getMessage());
            return CfiTable.EMPTY;
        }
    }
}
