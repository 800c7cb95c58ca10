package io.mixflame.symbolize;

import io.mixflame.cache.OffHeapArray;
import io.mixflame.image.index.IndexRefusedException;
import io.mixflame.image.index.IndexSection;
import io.mixflame.image.index.KeyHash;
import io.mixflame.image.index.LongArraySection;
import io.mixflame.image.index.ModuleIndex;
import io.mixflame.image.index.ModuleIndexKey;
import io.mixflame.image.index.ModuleIndexStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kernel's function symbols through the host's module index: {@code /proc/kallsyms} is some ten megabytes of
 * text that the kernel formats line by line as it is read, and parsing it cost each JVM's profiler 100–150 ms of CPU
 * and the JIT work of compiling the parser, at the first kernel frame. The first JVM of a boot parses it
 * and writes the table; the next ones map it.
 *
 * <p>The index is keyed by the boot ({@code /proc/sys/kernel/random/boot_id}), the loaded modules (their names,
 * sizes and addresses from {@code /proc/modules}) and the address of the file's first function line as this reader
 * sees it: another boot, a module loaded or unloaded, the kernel placed elsewhere or a reader not privileged to see
 * addresses each make another key. Symbols the kernel adds without a module (BPF programs, trampolines) after the
 * index was written are not in it: their addresses are named after the function below them.
 */
public final class KernelSymbolIndex {
    /** Section: {@code [functions, module functions, first line address, name bytes]}. */
    static final int HEADER = 1;
    /** Section: the sorted addresses, a long each. */
    static final int ADDRESSES = 2;
    /** Section: where each name starts in the names, an int each. */
    static final int NAME_STARTS = 3;
    /** Section: the names, each ending in a line feed, in chunks of {@link KernelSymbols#CHUNK} laid end to end. */
    static final int NAMES = 4;
    private static final Logger LOG = LoggerFactory.getLogger(KernelSymbolIndex.class);
    private static final Path KALLSYMS = Path.of("/proc/kallsyms");
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final Path MODULES = Path.of("/proc/modules");
    /** The start of kallsyms read for the key: its first function line is within a few hundred bytes. */
    private static final int HEAD_BYTES = 16 * 1024;
    /** {@code /proc/modules} is a line per module; a host with thousands of them is not indexed. */
    private static final long MAX_MODULES_BYTES = 1 << 20;

    private KernelSymbolIndex() {
    }

    /** The running kernel's symbols: from {@code store}'s index when it has a sound one, else parsed and indexed. */
    public static KernelSymbols load(ModuleIndexStore store) {
        Optional<ModuleIndexKey> key = store.enabled() ? key() : Optional.empty();
        if (key.isEmpty()) {
            return KernelSymbols.load();
        }
        Optional<ModuleIndex> index = store.open(key.get());
        if (index.isPresent()) {
            try {
                KernelSymbols symbols = fromIndex(index.get());
                LOG.debug("kernel symbols from module index {}", index.get().fileName());
                return symbols;
            } catch (IndexRefusedException | RuntimeException e) {
                LOG.debug("module index {} refused for the kernel's symbols ({}); rebuilt", index.get().fileName(),
                        e.getMessage());
            }
        }
        KernelSymbols symbols = KernelSymbols.load();
        if (symbols.functions() > 0 && store.write(key.get(), sections(symbols))) {
            LOG.debug("kernel symbols written to module index {}", key.get().fileName());
        }
        return symbols;
    }

    /** The key of the running kernel's symbols as this process sees them; empty when any part cannot be read. */
    static Optional<ModuleIndexKey> key() {
        try {
            String bootId = Files.readString(BOOT_ID, StandardCharsets.US_ASCII).trim();
            long first = firstLineAddress();
            if (bootId.isEmpty() || first == 0) {
                return Optional.empty();
            }
            // A kernel built without modules has no /proc/modules.
            List<String> modules = List.of();
            if (Files.exists(MODULES)) {
                if (Files.size(MODULES) > MAX_MODULES_BYTES) {
                    return Optional.empty();
                }
                modules = Files.readAllLines(MODULES, StandardCharsets.ISO_8859_1);
            }
            return Optional.of(key(bootId, modules, first));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The key for a boot, its modules' lines as {@code /proc/modules} gives them and the first function's address.
     * Of each module line only its name, size and address count: the use count between them changes as it is used.
     */
    static ModuleIndexKey key(String bootId, List<String> moduleLines, long firstLineAddress) {
        KeyHash digest = new KeyHash();
        for (String line : moduleLines) {
            String[] fields = words(line);
            if (fields.length >= 2) {
                digest.update((fields[0] + ' ' + fields[1] + ' ' + fields[fields.length - 1] + '\n')
                        .getBytes(StandardCharsets.ISO_8859_1));
            }
        }
        String identity = "kallsyms\n" + bootId + '\n' + Long.toHexString(firstLineAddress) + '\n' + digest.hex();
        return ModuleIndexKey.kernel(identity.getBytes(StandardCharsets.US_ASCII));
    }

    private static long firstLineAddress() throws IOException {
        byte[] head = new byte[HEAD_BYTES];
        int length = 0;
        try (InputStream in = Files.newInputStream(KALLSYMS)) {
            for (int n = 0; n >= 0 && length < head.length; n = in.read(head, length, head.length - length)) {
                length += n;
            }
        }
        return KernelSymbols.firstLineAddress(head, length);
    }

    /** A line's words between runs of spaces (not {@code split(" +")}: a regular expression in the start-up). */
    static String[] words(String line) {
        ArrayList<String> words = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            int start = i;
            while (i < n && line.charAt(i) != ' ') {
                i++;
            }
            if (i > start) {
                words.add(line.substring(start, i));
            }
        }
        return words.toArray(new String[0]);
    }

    /** The sections of a parsed table. */
    static List<IndexSection> sections(KernelSymbols symbols) {
        int count = symbols.functions();
        long[] header = {count, symbols.moduleFunctions(), symbols.firstLineAddress(), symbols.nameBytes()};
        return List.of(new LongArraySection(HEADER, header.length, header),
                new ArraySection(ADDRESSES, Long.BYTES, count, symbols.addresses()),
                new ArraySection(NAME_STARTS, Integer.BYTES, count, symbols.nameStarts()),
                new NamesSection(symbols.nameChunks(), Math.toIntExact(symbols.nameBytes())));
    }

    /** The table mapped from an index file, checked against the counts its header records. */
    static KernelSymbols fromIndex(ModuleIndex index) throws IndexRefusedException {
        ByteBuffer header = index.section(HEADER);
        if (index.entries(HEADER) != 1 || header.remaining() != 4 * Long.BYTES) {
            throw new IndexRefusedException("a header of another shape");
        }
        long count = header.getLong();
        long moduleFunctions = header.getLong();
        long firstLineAddress = header.getLong();
        long nameBytes = header.getLong();
        if (count <= 0 || count > KernelSymbols.MAX_FUNCTIONS || moduleFunctions < 0 || moduleFunctions > count
                || nameBytes <= 0 || nameBytes > (long) KernelSymbols.MAX_CHUNKS * KernelSymbols.CHUNK) {
            throw new IndexRefusedException("counts out of bounds");
        }
        ByteBuffer addresses = exactly(index, ADDRESSES, count * Long.BYTES);
        ByteBuffer starts = exactly(index, NAME_STARTS, count * Integer.BYTES);
        ByteBuffer names = exactly(index, NAMES, nameBytes);
        int chunks = (int) ((nameBytes + KernelSymbols.CHUNK - 1) / KernelSymbols.CHUNK);
        OffHeapArray[] nameChunks = new OffHeapArray[chunks];
        for (int i = 0; i < chunks; i++) {
            int from = i * KernelSymbols.CHUNK;
            nameChunks[i] = OffHeapArray.readOnly(names.slice(from, (int) Math.min(KernelSymbols.CHUNK,
                    nameBytes - from)).order(names.order()), 1);
        }
        return new KernelSymbols(OffHeapArray.readOnly(addresses, Long.BYTES), OffHeapArray.readOnly(starts,
                Integer.BYTES), nameChunks, (int) count, (int) moduleFunctions,
                (int) (nameBytes - (long) (chunks - 1) * KernelSymbols.CHUNK), firstLineAddress);
    }

    private static ByteBuffer exactly(ModuleIndex index, int kind, long bytes) throws IndexRefusedException {
        ByteBuffer section = index.section(kind);
        if (section.remaining() != bytes) {
            throw new IndexRefusedException("section " + kind + " is not " + bytes + " bytes");
        }
        return section;
    }

    /** Elements of an off-heap array, copied a run at a time. */
    private record ArraySection(int kind, int entryBytes, int entries, OffHeapArray array) implements IndexSection {
        @Override
        public void put(int first, int count, ByteBuffer out) {
            array.copyBytes(first * entryBytes, count * entryBytes, out);
        }
    }

    /** The names' chunks laid end to end, a byte an entry. */
    private record NamesSection(OffHeapArray[] chunks, int entries) implements IndexSection {
        @Override
        public int kind() {
            return NAMES;
        }

        @Override
        public int entryBytes() {
            return 1;
        }

        @Override
        public void put(int first, int count, ByteBuffer out) {
            int done = 0;
            while (done < count) {
                int at = first + done;
                int chunk = at / KernelSymbols.CHUNK;
                int offset = at % KernelSymbols.CHUNK;
                int n = Math.min(count - done, KernelSymbols.CHUNK - offset);
                chunks[chunk].copyBytes(offset, n, out);
                done += n;
            }
        }
    }
}
