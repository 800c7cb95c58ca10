package io.mixflame.image;

import io.mixflame.image.elf.ElfFile;
import io.mixflame.image.elf.ElfSegment;
import io.mixflame.image.dwarf.CfiParser;
import io.mixflame.image.dwarf.CallFrameInfo;
import io.mixflame.image.dwarf.CfiTable;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ELF file as the profiler uses it: its function symbols and its call frame information, each read once on
 * first use and shared by every process that maps the file. A file that cannot be parsed gets no symbols and no
 * CFI and one log line; it never fails a walk.
 */
public final class NativeModule {
    private static final Logger LOG = LoggerFactory.getLogger(NativeModule.class);

    private final String name;
    private final String path;
    private final ElfSource source;
    private volatile ElfFile elf;
    private volatile boolean elfFailed;
    private volatile SymbolTable symbols;
    private volatile CallFrameInfo cfi;

    /** Where the module's bytes come from: a file, or memory (the vDSO). */
    @FunctionalInterface
    public interface ElfSource {
        ElfFile open() throws Exception;
    }

    public NativeModule(String path, ElfSource source) {
        this.path = path;
        this.name = path.substring(path.lastIndexOf('/') + 1);
        this.source = source;
    }

    /** The file's name without directories, such as {@code libc.so.6}. */
    public String name() {
        return name;
    }

    /** The file's path, or a pseudo-name such as {@code [vdso]}. */
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
                if (!(e instanceof io.mixflame.image.elf.ElfFormatException) || "not an ELF file".equals(e.getMessage())) {
                    LOG.debug("{} gets no symbols: {}", path, e.getMessage());
                } else {
                    LOG.warn("cannot read {}: {}; it gets no symbols and no unwind information", path, e.getMessage());
                }
            }
        }
        return Optional.ofNullable(elf);
    }

    /** The module's function symbols (with those of its separate debug file), read on first use. */
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

    /**
     * The load bias of a mapping of this file: what to add to the file's link-time addresses to get the
     * addresses in the process, from the segment that holds the mapping's file offset.
     */
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
        SymbolTableBuilder builder = new SymbolTableBuilder();
        try {
            DebugFiles.find(path, file.get()).ifPresent(debug -> ElfSymbolReader.readInto(debug, builder));
            ElfSymbolReader.readInto(file.get(), builder);
            return builder.build();
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
