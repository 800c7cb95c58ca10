package io.mixflame.examples.browser;

import io.mixflame.examples.browser.FlameGraphPage.Frame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The collapsed stacks a flame graph was drawn from, read back from its frames: a frame's samples that none of
 * its children take are samples whose stack ends there. The page's sums can so be checked against counts that
 * do not come from the page's own arithmetic.
 */
public final class FoldedStacks {
    private FoldedStacks() {
    }

    /** Stack (root's child first, the page's root frame left out) to sample count. */
    public static Map<List<String>, Long> of(List<Frame> frames) {
        List<Frame> byLevel = new ArrayList<>(frames);
        byLevel.sort(Comparator.comparingInt(Frame::level).thenComparingLong(Frame::left));
        Map<Frame, List<String>> stackOf = new HashMap<>();
        Map<Frame, Long> ownSamples = new LinkedHashMap<>();
        List<TreeMap<Long, Frame>> levels = new ArrayList<>();
        for (Frame f : byLevel) {
            while (levels.size() <= f.level()) {
                levels.add(new TreeMap<>());
            }
            levels.get(f.level()).put(f.left(), f);
            ownSamples.put(f, f.width());
            List<String> stack = new ArrayList<>();
            if (f.level() > 0) {
                Frame parent = parent(levels.get(f.level() - 1), f);
                stack.addAll(stackOf.get(parent));
                stack.add(f.title());
                ownSamples.merge(parent, -f.width(), Long::sum);
            }
            stackOf.put(f, stack);
        }
        Map<List<String>, Long> collapsed = new LinkedHashMap<>();
        ownSamples.forEach((f, n) -> {
            if (n < 0) {
                throw new AssertionError("children wider than their parent " + f);
            }
            if (n > 0 && f.level() > 0) {
                collapsed.merge(stackOf.get(f), n, Long::sum);
            }
        });
        return collapsed;
    }

    private static Frame parent(TreeMap<Long, Frame> level, Frame child) {
        Map.Entry<Long, Frame> e = level.floorEntry(child.left());
        if (e == null || child.left() + child.width() > e.getValue().left() + e.getValue().width()) {
            throw new AssertionError("no frame one level down spans " + child);
        }
        return e.getValue();
    }
}
