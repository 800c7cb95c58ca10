package io.mixflame.image.pe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The named exports of a PE image's export directory: lookup by name (as {@code gHotSpotVMStructs} is found in
 * jvm.dll) and the nearest export at or below an RVA (to name frames in images without other symbols). Exports
 * forwarded to another DLL (their RVA points into the export directory, at a "DLL.Name" string) are skipped, as
 * they name no code of this image.
 */
public final class PeExports {
    private static final int DIRECTORY_SIZE = 40;
    private static final int MAX_NAME = 4096;

    private final Map<String, Long> byName;
    private final PeExport[] byRva;
    private final String ownName;

    private PeExports(List<PeExport> exports, String ownName) {
        this.ownName = ownName;
        this.byName = new HashMap<>();
        for (PeExport e : exports) {
            byName.putIfAbsent(e.name(), e.rva());
        }
        this.byRva = exports.toArray(new PeExport[0]);
        Arrays.sort(byRva, Comparator.comparingLong(PeExport::rva).thenComparing(PeExport::name));
    }

    /**
     * Reads the export directory of an image; an image without one has no exports.
     *
     * @throws PeFormatException if the directory or its tables lie outside the image
     */
    public static PeExports read(PeFile file) {
        PeDataDirectory dir = file.directory(PeFile.DIRECTORY_EXPORT);
        if (!dir.isPresent()) {
            return new PeExports(List.of(), null);
        }
        file.rvaToOffset(dir.rva(), DIRECTORY_SIZE);
        long functionCount = file.u32(dir.rva() + 20);
        long nameCount = file.u32(dir.rva() + 24);
        long functions = file.u32(dir.rva() + 28);
        long names = file.u32(dir.rva() + 32);
        long ordinals = file.u32(dir.rva() + 36);
        // Check each table as a whole before reading it, so a huge count fails at once rather than entry by entry.
        file.rvaToOffset(functions, functionCount * 4);
        file.rvaToOffset(names, nameCount * 4);
        file.rvaToOffset(ordinals, nameCount * 2);
        List<PeExport> exports = new ArrayList<>();
        for (long i = 0; i < nameCount; i++) {
            int index = file.u16(ordinals + 2 * i);
            if (index >= functionCount) {
                throw new PeFormatException("export name " + i + " has ordinal index " + index + " past the "
                        + functionCount + " functions");
            }
            long rva = file.u32(functions + 4L * index);
            if (rva == 0 || dir.contains(rva)) {
                continue; // unused slot, or a forwarder string
            }
            exports.add(new PeExport(file.cString(file.u32(names + 4 * i), MAX_NAME), rva));
        }
        return new PeExports(exports, ownName(file, dir));
    }

    /** The directory's Name: the DLL's name as it was linked; null when it has none that can be read. */
    private static String ownName(PeFile file, PeDataDirectory dir) {
        long rva = file.u32(dir.rva() + 12);
        if (rva == 0) {
            return null;
        }
        try {
            return file.cString(rva, MAX_NAME);
        } catch (PeFormatException e) {
            // A name outside the image costs the name, not the exports.
            return null;
        }
    }

    /**
     * The name the image gives itself in its export directory ({@code jvm.dll}), or empty when it has no export
     * directory or its name cannot be read.
     */
    public Optional<String> ownName() {
        return Optional.ofNullable(ownName);
    }

    /** The RVA an exported name points at. */
    public Optional<Long> rvaOf(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The export with the greatest RVA at or below {@code rva}. */
    public Optional<PeExport> nearestAtOrBelow(long rva) {
        int low = 0;
        int high = byRva.length - 1;
        PeExport best = null;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (byRva[mid].rva() <= rva) {
                best = byRva[mid];
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Every export kept, by RVA. */
    public List<PeExport> all() {
        return List.of(byRva);
    }

    /** Number of exports kept (forwarders excluded). */
    public int size() {
        return byRva.length;
    }
}
