package io.mixflame.layers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No package of the project's modules imports, directly or through others, a package that imports it back: a
 * package that picks among implementations (a platform, an architecture, an engine) lives apart from the
 * interfaces they implement. Read from the sources, so that it holds for every module, not only this one's.
 */
class PackageCyclesTest {
    private static final List<String> MODULES = List.of("api", "report", "collector", "agent", "examples");
    private static final Pattern PACKAGE = Pattern.compile("^package ([a-z0-9_.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(io\\.mixflame\\.[a-z0-9_.]+)\\.[A-Z]",
            Pattern.MULTILINE);

    @Test
    void noPackageImportsItselfThroughOthers() throws IOException {
        Map<String, Set<String>> imports = new TreeMap<>();
        for (String module : MODULES) {
            Path sources = Path.of("..", module, "src", "main", "java");
            assertThat(sources).as("the sources of module %s", module).isDirectory();
            read(sources, imports);
        }
        assertThat(imports).as("packages read").hasSizeGreaterThan(40);
        List<String> cycles = new ArrayList<>();
        for (Set<String> component : new StronglyConnected(imports).components()) {
            if (component.size() > 1) {
                StringBuilder edges = new StringBuilder(component.toString());
                for (String from : component) {
                    for (String to : imports.getOrDefault(from, Set.of())) {
                        if (component.contains(to)) {
                            edges.append("\n  ").append(from).append(" -> ").append(to);
                        }
                    }
                }
                cycles.add(edges.toString());
            }
        }
        assertThat(cycles).as("packages that import each other, directly or through others").isEmpty();
    }

    @Test
    void aCycleIsFound() {
        Map<String, Set<String>> imports = new TreeMap<>();
        imports.put("a", Set.of("b"));
        imports.put("b", Set.of("c"));
        imports.put("c", Set.of("a", "d"));
        imports.put("d", Set.of());
        assertThat(new StronglyConnected(imports).components()).contains(new TreeSet<>(List.of("a", "b", "c")))
                .contains(new TreeSet<>(List.of("d")));
    }

    private static void read(Path sources, Map<String, Set<String>> imports) throws IOException {
        try (Stream<Path> paths = Files.walk(sources)) {
            for (Path file : (Iterable<Path>) paths.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String text = Files.readString(file);
                Matcher p = PACKAGE.matcher(text);
                if (!p.find()) {
                    continue;
                }
                String pkg = p.group(1);
                Set<String> to = imports.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = IMPORT.matcher(text);
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        to.add(m.group(1));
                    }
                }
            }
        }
    }

    /** Tarjan's strongly connected components of a graph given as its edges. */
    private static final class StronglyConnected {
        private final Map<String, Set<String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<Set<String>> components = new ArrayList<>();

        StronglyConnected(Map<String, Set<String>> edges) {
            this.edges = edges;
        }

        List<Set<String>> components() {
            for (String v : edges.keySet()) {
                if (!index.containsKey(v)) {
                    visit(v);
                }
            }
            return components;
        }

        private void visit(String v) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            for (String w : edges.getOrDefault(v, Set.of())) {
                if (!index.containsKey(w)) {
                    visit(w);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (onStack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
            }
            if (low.get(v).equals(index.get(v))) {
                Set<String> component = new TreeSet<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    component.add(w);
                } while (!w.equals(v));
                components.add(component);
            }
        }
    }
}
