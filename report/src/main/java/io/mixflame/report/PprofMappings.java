package io.mixflame.report;

import io.mixflame.profile.Frame;
import io.mixflame.profile.NativeModule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places native code in a synthetic address space for pprof: one Mapping per module, and an address for each of its
 * frames. The real load addresses are not kept, so each module gets a base of its own, past the previous module's
 * end and rounded up to 4 GiB so that most read as {@code N << 32}: a frame's address is {@code base + offset},
 * its offset being the function's address as the module's image states it. Ranges never overlap; a module whose
 * range would pass {@code Long.MAX_VALUE} (only from absurd offsets) gets no mapping and its frames no address.
 *
 * <p>A mapping's file is the module's full path and its build id the image's where the profile's
 * {@linkplain io.mixflame.profile.ProfileInfo#modules modules} know them, else the name the frames carry. The first of
 * those modules (the process's main executable) is mapping 1 whether or not a frame lies in it, as pprof takes
 * mapping 1 for the main binary ({@code File:} in its reports); the other mappings follow in the order the frames first
 * name their modules.
 *
 * <p>Modules with one build id are one mapping: pprof takes a mapping's build id, size and offset as the binary's
 * identity and merges mappings that agree on them when it loads a profile, renumbering the rest, so two copies of one
 * library (an application's JNA unpacked to a temporary file and the profiler's JNA from its cache directory) would
 * otherwise leave ids that the {@code mixflame mapping N} comments no longer match. The first module to appear names
 * the shared mapping's file, and its frames' module name is the one read back.
 */
final class PprofMappings {

    /**
     * A module's range: [start, limit), its file, its build id (empty when unknown), and the name its frames carry
     * (which differs from the file's name for a temporary copy).
     */
    record Mapping(int id, long start, long limit, String file, String buildId, String module) {

        /** Whether the file's name, without directories, is not the name the frames carry. */
        boolean renamed() {
            return !PprofMappings.fileName(file).equals(module);
        }
    }

    private static final long ALIGNMENT = 1L << 32;

    private final Map<String, Mapping> byModule = new HashMap<>();
    /** Entry 0 is no mapping: pprof's mapping ids start at 1, and OTLP's mapping 0 is the empty one. */
    private final IndexTable<Mapping> all = new IndexTable<>(null);

    /**
     * The mappings of the modules of {@code frames}, after the first of {@code modules}.
     *
     * @param modules the profile's modules with their paths, the main executable first; may be empty
     */
    PprofMappings(List<Frame> frames, List<NativeModule> modules) {
        Map<String, NativeModule> known = new HashMap<>();
        for (NativeModule m : modules) {
            known.putIfAbsent(m.name(), m);
        }
        Map<String, Long> maxOffset = new LinkedHashMap<>();
        if (!modules.isEmpty()) {
            maxOffset.put(modules.get(0).name(), 0L);
        }
        for (Frame f : frames) {
            if (f.module() != null && !f.type().isJava()) {
                maxOffset.merge(f.module(), Math.max(0, f.offset()), Math::max);
            }
        }
        // Module names by the binary they are, in order of appearance, with the largest offset any of them reaches.
        Map<String, List<String>> names = new LinkedHashMap<>();
        Map<String, Long> reach = new HashMap<>();
        for (Map.Entry<String, Long> m : maxOffset.entrySet()) {
            NativeModule module = known.get(m.getKey());
            String binary = module == null || module.buildId().isEmpty() ? "name\0" + m.getKey()
                    : "build\0" + module.buildId();
            names.computeIfAbsent(binary, k -> new ArrayList<>()).add(m.getKey());
            reach.merge(binary, m.getValue(), Math::max);
        }
        // Not 0: pprof takes address 0 for "unknown".
        long base = ALIGNMENT;
        for (Map.Entry<String, List<String>> binary : names.entrySet()) {
            try {
                long limit = Math.addExact(Math.addExact(base, reach.get(binary.getKey())), 1);
                String first = binary.getValue().get(0);
                NativeModule module = known.get(first);
                String file = module == null ? first : module.path();
                String buildId = module == null ? "" : module.buildId();
                Mapping mapping = new Mapping(all.size(), base, limit, file, buildId, first);
                all.index(mapping);
                for (String name : binary.getValue()) {
                    byModule.put(name, mapping);
                }
                base = Math.multiplyExact(Math.addExact(limit, ALIGNMENT - 1) / ALIGNMENT, ALIGNMENT);
            } catch (ArithmeticException e) {
                break;
            }
        }
    }

    /** Every mapping, ids 1..n; a mapping's id is its index in OTLP's mapping table. */
    List<Mapping> all() {
        List<Mapping> entries = all.entries();
        return List.copyOf(entries.subList(1, entries.size()));
    }

    /** The mapping of the frame's module, or null for a frame without one (Java, markers, unknown module). */
    Mapping of(Frame frame) {
        return frame.module() == null || frame.type().isJava() ? null : byModule.get(frame.module());
    }

    /** The frame's synthetic address, or 0 when it has no mapping. */
    long address(Frame frame) {
        Mapping m = of(frame);
        return m == null ? 0 : m.start() + Math.max(0, frame.offset());
    }

    /** A path's last part, after its last {@code /} or {@code \}. */
    static String fileName(String path) {
        return path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    }
}
