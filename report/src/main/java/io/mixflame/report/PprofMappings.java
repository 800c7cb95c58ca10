package io.mixflame.report;

import io.mixflame.profile.Frame;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places native code in a synthetic address space for pprof: one Mapping per module, and an address for each of its
 * frames. The real load addresses are not kept, so each module gets a base of its own, past the previous module's
 * end and rounded up to 4 GiB so that most read as {@code N << 32}: a frame's address is {@code base + offset},
 * its offset being the function's address as the module's image states it. Ranges never overlap; a module whose
 * range would pass {@code Long.MAX_VALUE} (only from absurd offsets) gets no mapping and its frames no address.
 */
final class PprofMappings {

    /** A module's range: [start, limit), file name. */
    record Mapping(int id, long start, long limit, String file) {
    }

    private static final long ALIGNMENT = 1L << 32;

    private final Map<String, Mapping> byModule = new LinkedHashMap<>();

    /** The mappings of the modules of {@code frames}, in the order the frames first name them. */
    PprofMappings(List<Frame> frames) {
        Map<String, Long> maxOffset = new LinkedHashMap<>();
        for (Frame f : frames) {
            if (f.module() != null && !f.type().isJava()) {
                maxOffset.merge(f.module(), Math.max(0, f.offset()), Math::max);
            }
        }
        // Not 0: pprof takes address 0 for "unknown".
        long base = ALIGNMENT;
        for (Map.Entry<String, Long> m : maxOffset.entrySet()) {
            try {
                long limit = Math.addExact(Math.addExact(base, m.getValue()), 1);
                byModule.put(m.getKey(), new Mapping(byModule.size() + 1, base, limit, m.getKey()));
                base = Math.multiplyExact(Math.addExact(limit, ALIGNMENT - 1) / ALIGNMENT, ALIGNMENT);
            } catch (ArithmeticException e) {
                break;
            }
        }
    }

    /** Every mapping, ids 1..n. */
    List<Mapping> all() {
        return new ArrayList<>(byModule.values());
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
}
